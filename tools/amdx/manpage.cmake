# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# cmake -DIN=cli.rst -DOUT=amdx.1.rst -P manpage.cmake: Documentation's
# admin-guide/cli.rst with the title rst2man turns into NAME and the
# manual section, so amdx(1) and the documentation are one text.
file(READ "${IN}" text)
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
" text "${text}")
file(WRITE "${OUT}" "${text}")
