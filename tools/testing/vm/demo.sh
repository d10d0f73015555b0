#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make demo: build what is needed, boot the VM and show amdx working.
exec "$(dirname "$0")/check.sh" --demo
