// SPDX-License-Identifier: GPL-2.0
/*
 * mprotect_loop: the guest side of scripts/hook-breakdown.py.  Maps three
 * PROT_NONE pages at a fixed marker address, makes the middle one
 * PROT_READ|PROT_WRITE (its own VMA, as lsm_bench's mprotect page: it never
 * merges with a neighbour), then mprotect()s it between PROT_READ and
 * PROT_READ|PROT_WRITE <n> times, as lsm_bench's mprotect operation does.
 * The host's debugger recognises these calls by the VMA's vm_start, the
 * marker address.
 *
 * usage: mprotect_loop <marker address, hex> <n>
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long addr, n, i;
	long page_size = sysconf(_SC_PAGESIZE);
	char *end, *map, *page;

	if (argc != 3) {
		fprintf(stderr, "usage: mprotect_loop <marker address, hex> <n>\n");
		return 2;
	}
	addr = strtoul(argv[1], &end, 16);
	if (*end || !addr || addr % page_size) {
		fprintf(stderr, "mprotect_loop: bad marker address %s\n", argv[1]);
		return 2;
	}
	n = strtoul(argv[2], &end, 10);
	if (*end || !n) {
		fprintf(stderr, "mprotect_loop: bad count %s\n", argv[2]);
		return 2;
	}
	map = mmap((void *)(addr - page_size), 3 * page_size, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (map == MAP_FAILED || map != (char *)(addr - page_size)) {
		printf("# mprotect_loop: mmap at %#lx: %s\n", addr - page_size,
		       strerror(errno));
		return 1;
	}
	page = map + page_size;
	if (mprotect(page, page_size, PROT_READ | PROT_WRITE)) {
		printf("# mprotect_loop: mprotect: %s\n", strerror(errno));
		return 1;
	}
	printf("mprotect_loop: %lu calls on %p\n", n, (void *)page);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		int prot = i & 1 ? PROT_READ | PROT_WRITE : PROT_READ;

		if (mprotect(page, page_size, prot)) {
			printf("# mprotect_loop: mprotect: %s\n", strerror(errno));
			return 1;
		}
	}
	printf("mprotect_loop: done\n");
	return 0;
}
