# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration for amdx's Documentation/ (make docs).
#
# The kernel-doc directive comes from the kernel's own Sphinx extension and
# script, taken from a Debian linux-source tree: scripts/docs.sh passes its
# location in AMDX_KERNEL_SRC.  No copy of either lives in this repository.

import os
import sys

ksrc = os.environ.get('AMDX_KERNEL_SRC')
if not ksrc:
    raise RuntimeError('AMDX_KERNEL_SRC is not set (run make docs)')
sys.path.insert(0, os.path.join(ksrc, 'Documentation', 'sphinx'))

project = 'amdx'
copyright = 'The amdx authors'
extensions = ['kerneldoc']
master_doc = 'index'
exclude_patterns = ['_build']
html_theme = 'alabaster'
primary_domain = 'c'
highlight_language = 'none'

kerneldoc_bin = os.path.join(ksrc, 'scripts', 'kernel-doc')
kerneldoc_srctree = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
kerneldoc_verbosity = 1

# The kernel's annotations, as the kernel's own conf.py declares them.
c_id_attributes = [
    '__user', '__iomem', '__rcu', '__percpu', '__force', '__must_check',
    '__always_inline', '__init', '__exit', '__maybe_unused', 'noinline',
    '__cold', '__pure', 'notrace',
]
