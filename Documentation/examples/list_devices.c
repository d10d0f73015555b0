// SPDX-License-Identifier: GPL-2.0-only OR MIT
//
// List amdx devices with libamdx's C ABI:
//   cc list_devices.c $(pkg-config --cflags --libs amdx)
// Usage: list_devices_c [CONTROL_NODE]
#include <stdio.h>

#include <amdx/amdx.h>

int main(int argc, char **argv)
{
	struct amdx_device_entry devs[AMDX_MAX_DEVICES];
	struct amdx_device_info info;
	amdx_ctl *ctl;
	char msg[256];
	size_t n, i;
	int ret;

	ret = amdx_ctl_open(argc > 1 ? argv[1] : NULL, &ctl);
	if (ret < 0) {
		amdx_last_error(msg, sizeof(msg));
		fprintf(stderr, "list_devices_c: %s\n", msg);
		return 1;
	}
	ret = amdx_ctl_devices(ctl, devs, sizeof(devs[0]), AMDX_MAX_DEVICES, &n);
	for (i = 0; ret == 0 && i < n; i++) {
		if (amdx_ctl_device_info(ctl, devs[i].id, &info, sizeof(info)) < 0)
			continue;
		printf("%u %s %s vram %llu MiB\n", info.id, (const char *)info.bdf,
		       (const char *)info.product, (unsigned long long)(info.vram_size >> 20));
	}
	if (ret < 0) {
		amdx_last_error(msg, sizeof(msg));
		fprintf(stderr, "list_devices_c: %s\n", msg);
	}
	amdx_ctl_close(ctl);
	return ret < 0;
}
