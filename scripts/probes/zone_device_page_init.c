// SPDX-License-Identifier: GPL-2.0
/*
 * HAVE_ZONE_DEVICE_PAGE_INIT: zone_device_page_init(), commit ef233450898f
 * ("mm: free device private pages have zero refcount"), v6.1.
 */
#include <linux/memremap.h>
#include <linux/module.h>

void amdx_probe_fn(struct page *page);
void amdx_probe_fn(struct page *page)
{
	zone_device_page_init(page);
}
MODULE_LICENSE("GPL");
