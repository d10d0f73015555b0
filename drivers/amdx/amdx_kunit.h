/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copyright (C) 2026 The amdx authors
 *
 * Exposing internals to the KUnit module amdx_test.ko.
 */
#ifndef _AMDX_KUNIT_H_
#define _AMDX_KUNIT_H_

#include <amdx_probes.h>

/*
 * HAVE_KUNIT_VISIBILITY: include/kunit/visibility.h, added by commit
 * 9c988fae6f6a ("kunit: add macro to allow conditionally exposing static
 * symbols to tests", v6.2, backported to 6.1.y).
 */
#ifdef HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#else
#error "amdx needs include/kunit/visibility.h (v6.2, or 6.1.y since 6.1.76)"
#endif

#endif /* _AMDX_KUNIT_H_ */
