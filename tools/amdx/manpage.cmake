# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# cmake -DIN=cli.rst -DCOMMANDS=commands.rst -DOUT=amdx.1.rst -P manpage.cmake:
# Documentation's admin-guide/cli.rst as amdx(1): the title becomes NAME and
# the manual section, the introduction DESCRIPTION, and the command summary
# amdx-gen made from the CLI's command tree goes before the commands,
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
set(described "Commands\n========\n")
string(FIND "${text}" "${described}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${IN}: no 'Commands' section to put the command summary before")
endif()
string(REPLACE "${described}" "${commands}${described}" text "${text}")
file(WRITE "${OUT}" "${text}")
