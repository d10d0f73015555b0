# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# cmake -DIN=cli.rst -DCOMMANDS=commands.rst -DOUT=amdx.1.rst -P manpage.cmake:
# Documentation's admin-guide/cli.rst as amdx(1): the title becomes NAME and
# the manual section, the introduction DESCRIPTION, and the command list
# amdx-gen made from the CLI's command tree goes before the exit statuses,
# so amdx(1), the documentation and the CLI are one text.
file(READ "${IN}" text)
file(READ "${COMMANDS}" commands)
set(title "==============\nThe amdx tool\n==============\n")
string(FIND "${text}" "${title}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${IN}: no 'The amdx tool' title to make the man page's NAME from")
endif()
string(REPLACE "${title}" "====
amdx
====

-----------------------------------------------------------
control AMD Instinct devices through the amdx kernel module
-----------------------------------------------------------

:Manual section: 1
:Manual group: amdx

Description
===========
" text "${text}")
set(status "Exit status and errors\n======================\n")
string(FIND "${text}" "${status}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${IN}: no 'Exit status and errors' section to put the commands before")
endif()
string(REPLACE "${status}" "${commands}${status}" text "${text}")
file(WRITE "${OUT}" "${text}")
