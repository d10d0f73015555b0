// SPDX-License-Identifier: GPL-2.0
/*
 * Copyright (C) 2026 The amdx authors
 */
/**
 * DOC: VRAM page allocator
 *
 * A page-granular (%PAGE_SIZE) allocator over the VRAM of one device, pure
 * logic with no device behind it, so KUnit tests it directly and every
 * provider (the simulator, a real backend) shares one implementation.
 *
 * VRAM of N pages is split into P equal memory (NPS) partitions, 1 <= P <=
 * %AMDX_VRAM_MAX_PARTITIONS, P dividing N.  Partition i owns the contiguous
 * page frame numbers [i * N / P, (i + 1) * N / P).  A "pfn" here is a VRAM
 * page index starting at 0, not a host page frame number.
 *
 * ::
 *
 *    pfn 0                N/4               N/2              3N/4          N
 *    |  partition 0        |  partition 1     |  partition 2    |  part. 3  |
 *    |0110100...           |...               |...              |...        |
 *     ^ one bitmap, each partition searches only its own range of bits
 *
 * Every allocated page records its owner (0 = PF, 1..15 = VFs), in a byte
 * per page (whose page is it) and a bitmap per owner (which pages are
 * its), so amdx_vram_owner_next() finds an owner's pages without looking
 * at anyone else's: a VF FLR's wipe costs the VF's pages, not the VRAM.
 * Usage is counted per partition and per owner; an owner may have a quota in pages
 * (0 = unlimited) beyond which allocations fail with -EDQUOT.  Frees are
 * checked (allocated, right owner, one partition) before anything changes.  Single pages
 * are handed out next-fit inside the partition; batches (a migration's,
 * amdx_vram_alloc_bulk()) lowest free first, in one lock round trip;
 * contiguous runs first-fit,
 * and fail with -ENOSPC when fragmentation leaves no run long enough even
 * though enough pages are free.  The partition count can only change while
 * nothing is allocated (-EBUSY otherwise).
 *
 * Every allocated page also has a holder: which device fd's data it
 * holds (amdx_hmm_ctx.c gives each fd an id, amdx_vram_holder_new(), and
 * records it on the pages it migrates in, amdx_vram_hold_pages()).  The
 * holder stays with the page wherever the kernel maps it (``mremap()``,
 * a ``fork()`` child) until it is freed, and pages are counted per holder
 * and partition, so "which fd's data is where" is a counter read, and
 * "every page of this fd" costs one look at a 16-bit entry per page of
 * VRAM, in bounded steps (amdx_vram_holder_run()).  Holder 0 is nobody:
 * pages allocated but not yet held, and the pages an fd left behind when
 * it went (amdx_vram_holder_put()).
 *
 * RAS retires pages for good (amdx_vram_retire()): a free page leaves the
 * allocator at once; an allocated one keeps its owner until it is freed
 * and then never comes back.  Retired pages count neither as used nor as
 * free (partition free = size - used - retired) and survive
 * repartitioning.
 *
 * All sizes and bases returned by this API are in pages.
 */
#include <linux/bitmap.h>
#include <linux/bug.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include <amdx/amdx_vram.h>

/* Pages amdx_vram_holder_run() and amdx_vram_holder_put() look at per step. */
#define AMDX_VRAM_HOLDER_STEP	16384

/**
 * struct amdx_vram_holder - the pages one holder has
 * @pages: per memory partition.
 * @total: over all partitions.
 * @user: the user it is counted against (&amdx_vram.users).
 * @counted: whether it is counted against @user.
 */
struct amdx_vram_holder {
	u64 pages[AMDX_VRAM_MAX_PARTITIONS];
	u64 total;
	u32 user;
	bool counted;
};

/**
 * struct amdx_vram_part - one memory partition
 * @base: first pfn of the partition.
 * @size: pages in the partition.
 * @used: pages allocated in the partition.
 * @retired: retired pages out of the allocator in the partition.
 * @hint: next-fit cursor, a pfn in [@base, @base + @size).
 */
struct amdx_vram_part {
	u64 base;
	u64 size;
	u64 used;
	u64 retired;
	u64 hint;
};

/**
 * struct amdx_vram - the allocator
 * @lock: protects every field below except @npages, which never changes.
 *	A spinlock, not a mutex, because pages are freed from the
 *	ZONE_DEVICE page_free() callback, which runs on the final put_page()
 *	of a device page and may do so under a page-table spinlock.  Never
 *	taken from interrupt context.  Nothing under it sleeps or allocates.
 * @npages: pages of VRAM.
 * @num_parts: current number of partitions.
 * @used: pages allocated in total.
 * @retired: retired pages out of the allocator.
 * @retire_pending: retired pages still allocated.
 * @parts: the partitions, @num_parts valid.
 * @map: one bit per page, set when allocated or retired.
 * @bad: one bit per page, set when retired.
 * @owner: owner of each allocated page, %AMDX_VRAM_NO_OWNER for a retired
 *	page out of the allocator; meaningless for free pages.
 * @owner_map: per owner one bit per page, set while the page is allocated
 *	to that owner.
 * @owner_used: pages allocated per owner.
 * @owner_quota: page limit per owner, 0 = unlimited.
 * @holder: holder of each page, 0 (nobody) for a free one.
 * @holders: the holders 1 .. %AMDX_VRAM_MAX_HOLDERS by id; entries are
 *	added without @lock (xa_alloc() allocates), looked up and erased
 *	under it, so an entry found under @lock stays until it is dropped.
 * @holder_next: where the search for a new holder id starts (under
 *	@users_lock): ids are handed out cyclically, so a dropped id comes
 *	back only after every other id was handed out since.
 * @users_lock: serialises handing out holder ids and @users; a mutex
 *	(the counts allocate), taken without @lock, never under it.
 * @users: holders per user under a per-user cap, by user (a kuid's
 *	value): xa_mk_value() counts, an entry only while it is not 0, so
 *	at most one per holder (as the kernel's ucounts).
 * @nobody: holder 0.
 * @last_id: the holder other than nobody amdx_vram_holder_get() found
 *	last, 0 for none; under @lock, forgotten before its entry is erased.
 * @last: that holder's entry.
 * @scanned: page entries amdx_vram_holder_run() and amdx_vram_owner_next()
 *	looked at, for tests to count what a walk by index costs.
 */
struct amdx_vram {
	/* guards all but @npages; see the kernel-doc above for why a spinlock */
	spinlock_t lock;
	u64 npages;
	u32 num_parts;
	u64 used;
	u64 retired;
	u64 retire_pending;
	struct amdx_vram_part parts[AMDX_VRAM_MAX_PARTITIONS];
	unsigned long *map;
	unsigned long *bad;
	u8 *owner;
	unsigned long *owner_map[AMDX_VRAM_MAX_OWNERS];
	u64 owner_used[AMDX_VRAM_MAX_OWNERS];
	u64 owner_quota[AMDX_VRAM_MAX_OWNERS];
	u16 *holder;
	struct xarray holders;
	u32 holder_next;
	struct mutex users_lock;	/* ids and @users; see the kernel-doc */
	struct xarray users;
	struct amdx_vram_holder nobody;
	u32 last_id;
	struct amdx_vram_holder *last;
	u64 scanned;
};

/* owner[] of a retired page that is not allocated */
#define AMDX_VRAM_NO_OWNER	0xff

static bool amdx_vram_layout_valid(u64 npages, u32 num_partitions)
{
	if (!num_partitions || num_partitions > AMDX_VRAM_MAX_PARTITIONS)
		return false;
	return npages && !do_div(npages, num_partitions);
}

/*
 * Caller holds v->lock or owns @v exclusively; nothing may be allocated,
 * so every bit set in the map is a retired page.
 */
static void amdx_vram_layout(struct amdx_vram *v, u32 num_partitions)
{
	u64 size = div_u64(v->npages, num_partitions);
	unsigned long bit;
	u32 i;

	memset(v->parts, 0, sizeof(v->parts));
	for (i = 0; i < num_partitions; i++) {
		v->parts[i].base = i * size;
		v->parts[i].size = size;
		v->parts[i].hint = i * size;
		bit = i * size;
		for_each_set_bit_from(bit, v->map, (i + 1) * size)
			v->parts[i].retired++;
	}
	v->num_parts = num_partitions;
}

/**
 * amdx_vram_create() - create an allocator
 * @size_bytes: VRAM size, a non-zero multiple of %PAGE_SIZE.
 * @num_partitions: memory partitions, 1 .. %AMDX_VRAM_MAX_PARTITIONS,
 *	dividing the page count.
 *
 * Context: process context, may sleep.
 * Return: the allocator, ERR_PTR(-EINVAL) for bad arguments,
 * ERR_PTR(-ENOMEM).
 */
struct amdx_vram *amdx_vram_create(u64 size_bytes, u32 num_partitions)
{
	u64 npages = size_bytes >> PAGE_SHIFT;
	struct amdx_vram *v;
	u32 i;

	if (!size_bytes || !PAGE_ALIGNED(size_bytes) ||
	    !amdx_vram_layout_valid(npages, num_partitions))
		return ERR_PTR(-EINVAL);
	/* bitmap helpers take unsigned long (and unsigned int run lengths) */
	if (npages > U32_MAX)
		return ERR_PTR(-EINVAL);

	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return ERR_PTR(-ENOMEM);

	v->map = kvcalloc(BITS_TO_LONGS(npages), sizeof(unsigned long),
			  GFP_KERNEL);
	if (!v->map)
		goto err_free_v;

	v->bad = kvcalloc(BITS_TO_LONGS(npages), sizeof(unsigned long),
			  GFP_KERNEL);
	if (!v->bad)
		goto err_free_map;

	v->owner = kvzalloc(npages, GFP_KERNEL);
	if (!v->owner)
		goto err_free_bad;

	for (i = 0; i < AMDX_VRAM_MAX_OWNERS; i++) {
		v->owner_map[i] = kvcalloc(BITS_TO_LONGS(npages),
					   sizeof(unsigned long), GFP_KERNEL);
		if (!v->owner_map[i])
			goto err_free_owner_maps;
	}

	v->holder = kvcalloc(npages, sizeof(*v->holder), GFP_KERNEL);
	if (!v->holder)
		goto err_free_owner_maps;
	xa_init_flags(&v->holders, XA_FLAGS_ALLOC1);
	mutex_init(&v->users_lock);
	xa_init(&v->users);

	spin_lock_init(&v->lock);
	v->npages = npages;
	amdx_vram_layout(v, num_partitions);
	return v;

err_free_owner_maps:
	while (i--)
		kvfree(v->owner_map[i]);
	kvfree(v->owner);
err_free_bad:
	kvfree(v->bad);
err_free_map:
	kvfree(v->map);
err_free_v:
	kfree(v);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_GPL(amdx_vram_create);

/**
 * amdx_vram_destroy() - free an allocator
 * @v: allocator, or NULL.
 *
 * Pages still allocated are reported once and forgotten; holders not
 * yet dropped are freed.
 */
void amdx_vram_destroy(struct amdx_vram *v)
{
	struct amdx_vram_holder *h;
	unsigned long id;
	u32 i;

	if (!v)
		return;
	WARN_ONCE(v->used, "amdx_vram: destroyed with %llu pages allocated\n",
		  v->used);
	xa_for_each(&v->holders, id, h)
		kfree(h);
	xa_destroy(&v->holders);
	xa_destroy(&v->users);
	mutex_destroy(&v->users_lock);
	kvfree(v->holder);
	for (i = 0; i < AMDX_VRAM_MAX_OWNERS; i++)
		kvfree(v->owner_map[i]);
	kvfree(v->owner);
	kvfree(v->bad);
	kvfree(v->map);
	kfree(v);
}
EXPORT_SYMBOL_GPL(amdx_vram_destroy);

/*
 * Caller holds v->lock.  The holder @id, NULL when there is none.  Pages
 * come and go in runs of one holder (a migration's batch, the frees of its
 * pages), so the last one found is remembered: no xarray walk per page.
 */
static struct amdx_vram_holder *amdx_vram_holder_get(struct amdx_vram *v,
						     u32 id)
{
	struct amdx_vram_holder *h;

	if (id == AMDX_VRAM_NO_HOLDER)
		return &v->nobody;
	if (id == v->last_id)
		return v->last;
	h = xa_load(&v->holders, id);
	if (h) {
		v->last_id = id;
		v->last = h;
	}
	return h;
}

/* Caller holds v->lock; @pfn is allocated.  Add @d to its holder's counts. */
static void amdx_vram_holder_count(struct amdx_vram *v, u64 pfn, int d)
{
	struct amdx_vram_holder *h = amdx_vram_holder_get(v, v->holder[pfn]);
	u32 part = div64_u64(pfn, v->parts[0].size);

	/* Every id on a page has its entry: amdx_vram_holder_put(). */
	if (WARN_ON_ONCE(!h))
		return;
	h->pages[part] += d;
	h->total += d;
}

static int amdx_vram_charge(struct amdx_vram *v, u32 owner, u64 npages)
{
	u64 quota = v->owner_quota[owner];

	if (quota && (v->owner_used[owner] > quota ||
		      npages > quota - v->owner_used[owner]))
		return -EDQUOT;
	return 0;
}

/* Caller holds v->lock; [first, first + npages) is free and in @p. */
static void amdx_vram_take(struct amdx_vram *v, struct amdx_vram_part *p,
			   u32 owner, u64 first, u64 npages)
{
	bitmap_set(v->map, first, npages);
	bitmap_set(v->owner_map[owner], first, npages);
	memset(v->owner + first, owner, npages);
	/* held by nobody until amdx_vram_hold_pages() (holder[] is 0) */
	v->nobody.pages[p - v->parts] += npages;
	v->nobody.total += npages;
	p->used += npages;
	v->used += npages;
	v->owner_used[owner] += npages;
}

/**
 * amdx_vram_alloc() - allocate one page
 * @v: allocator.
 * @part: memory partition to allocate from.
 * @owner: owner to charge, below %AMDX_VRAM_MAX_OWNERS.
 * @pfn: out: the page.
 *
 * Next-fit: the search starts after the page handed out last in @part.
 *
 * Context: any context but interrupt; takes a spinlock.
 * Return: 0, -EINVAL for a bad @part or @owner, -EDQUOT when @owner is at
 * its quota, -ENOSPC when @part is full.
 */
int amdx_vram_alloc(struct amdx_vram *v, u32 part, u32 owner, u64 *pfn)
{
	struct amdx_vram_part *p;
	unsigned long end, bit;
	int ret;

	if (owner >= AMDX_VRAM_MAX_OWNERS)
		return -EINVAL;

	spin_lock(&v->lock);
	if (part >= v->num_parts) {
		ret = -EINVAL;
		goto out_unlock;
	}
	p = &v->parts[part];
	ret = amdx_vram_charge(v, owner, 1);
	if (ret)
		goto out_unlock;
	if (p->used + p->retired == p->size) {
		ret = -ENOSPC;
		goto out_unlock;
	}

	end = p->base + p->size;
	bit = find_next_zero_bit(v->map, end, p->hint);
	if (bit >= end)
		bit = find_next_zero_bit(v->map, p->hint, p->base);
	/* used + retired < size guarantees a zero bit */
	if (WARN_ON_ONCE(bit >= end)) {
		ret = -ENOSPC;
		goto out_unlock;
	}

	amdx_vram_take(v, p, owner, bit, 1);
	p->hint = bit + 1 < end ? bit + 1 : p->base;
	*pfn = bit;
out_unlock:
	spin_unlock(&v->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_vram_alloc);

/**
 * amdx_vram_alloc_bulk() - allocate up to @n pages, lowest free first
 * @v: allocator.
 * @part: memory partition to allocate from.
 * @owner: owner to charge, below %AMDX_VRAM_MAX_OWNERS.
 * @n: pages wanted.
 * @pfns: out: the pages, @n entries of room.
 * @got: out: pages allocated, into @pfns[0 .. *@got).
 *
 * One lock round trip for the whole batch (a migration's), taking free
 * runs first-fit from the start of @part: a batch gets the lowest free
 * pages, as contiguous as the partition allows, so a process that moves
 * data in and out keeps reusing the same VRAM (what a real backend's DMA
 * wants, and what keeps the simulator's backing pages cache-warm) instead
 * of walking the partition page by page the way next-fit does.  The
 * quota is charged for what is allocated; allocation stops at the quota
 * or when @part is full.
 *
 * Context: any context but interrupt; takes a spinlock.
 * Return: 0 when all @n pages were allocated, -EINVAL for a bad @part,
 * @owner or @n (nothing allocated), else why *@got < @n: -EDQUOT at
 * @owner's quota, -ENOSPC when @part is full.
 */
int amdx_vram_alloc_bulk(struct amdx_vram *v, u32 part, u32 owner, u32 n,
			 u64 *pfns, u32 *got)
{
	u64 room, quota, want;
	struct amdx_vram_part *p;
	unsigned long end, bit, zero;
	u32 k = 0;
	int ret = 0;

	*got = 0;
	if (owner >= AMDX_VRAM_MAX_OWNERS || !n)
		return -EINVAL;

	spin_lock(&v->lock);
	if (part >= v->num_parts) {
		ret = -EINVAL;
		goto out_unlock;
	}
	p = &v->parts[part];
	room = p->size - p->used - p->retired;
	want = n;
	if (room < want) {
		want = room;
		ret = -ENOSPC;
	}
	quota = v->owner_quota[owner];
	if (quota) {
		u64 left = v->owner_used[owner] >= quota ? 0 :
			   quota - v->owner_used[owner];

		/* At the quota first, as amdx_vram_alloc() says. */
		if (left < n && left <= want) {
			want = left;
			ret = -EDQUOT;
		}
	}

	end = p->base + p->size;
	bit = p->base;
	while (k < want) {
		bit = find_next_zero_bit(v->map, end, bit);
		/* used + retired < size guarantees want zero bits */
		if (WARN_ON_ONCE(bit >= end)) {
			ret = -ENOSPC;
			break;
		}
		zero = find_next_bit(v->map, end, bit);
		zero = min_t(unsigned long, zero, bit + (want - k));
		amdx_vram_take(v, p, owner, bit, zero - bit);
		for (; bit < zero; bit++)
			pfns[k++] = bit;
	}
	*got = k;
out_unlock:
	spin_unlock(&v->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_vram_alloc_bulk);

/**
 * amdx_vram_alloc_contig() - allocate physically contiguous pages
 * @v: allocator.
 * @part: memory partition to allocate from; the run never crosses into
 *	another partition.
 * @owner: owner to charge, below %AMDX_VRAM_MAX_OWNERS.
 * @npages: length of the run, at least 1.
 * @first_pfn: out: first page of the run.
 *
 * First-fit from the start of @part.
 *
 * Context: any context but interrupt; takes a spinlock.
 * Return: 0, -EINVAL for a bad @part, @owner or @npages, -EDQUOT when the
 * run would take @owner over its quota, -ENOSPC when no free run of
 * @npages pages exists in @part (also when enough pages are free but
 * fragmented).
 */
int amdx_vram_alloc_contig(struct amdx_vram *v, u32 part, u32 owner,
			   u64 npages, u64 *first_pfn)
{
	struct amdx_vram_part *p;
	unsigned long end, bit;
	int ret;

	if (owner >= AMDX_VRAM_MAX_OWNERS || !npages || npages > U32_MAX)
		return -EINVAL;

	spin_lock(&v->lock);
	if (part >= v->num_parts) {
		ret = -EINVAL;
		goto out_unlock;
	}
	p = &v->parts[part];
	ret = amdx_vram_charge(v, owner, npages);
	if (ret)
		goto out_unlock;
	if (npages > p->size - p->used - p->retired) {
		ret = -ENOSPC;
		goto out_unlock;
	}

	end = p->base + p->size;
	bit = bitmap_find_next_zero_area(v->map, end, p->base, npages, 0);
	if (bit >= end || npages > end - bit) {
		ret = -ENOSPC;
		goto out_unlock;
	}

	amdx_vram_take(v, p, owner, bit, npages);
	*first_pfn = bit;
out_unlock:
	spin_unlock(&v->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_vram_alloc_contig);

/* Caller holds v->lock.  Checks, then frees all pages or none. */
static int amdx_vram_release(struct amdx_vram *v, u64 first, u64 npages,
			     u32 owner)
{
	struct amdx_vram_part *p;
	u64 pfn;

	if (owner >= AMDX_VRAM_MAX_OWNERS || !npages || first >= v->npages ||
	    npages > v->npages - first)
		return -EINVAL;

	p = &v->parts[div64_u64(first, v->parts[0].size)];
	if (npages > p->base + p->size - first)
		return -EINVAL;

	for (pfn = first; pfn < first + npages; pfn++) {
		if (!test_bit(pfn, v->map) || v->owner[pfn] == AMDX_VRAM_NO_OWNER)
			return -ENOENT;
		if (v->owner[pfn] != owner)
			return -EPERM;
	}

	bitmap_clear(v->owner_map[owner], first, npages);
	for (pfn = first; pfn < first + npages; pfn++) {
		amdx_vram_holder_count(v, pfn, -1);
		v->holder[pfn] = AMDX_VRAM_NO_HOLDER;
		if (!test_bit(pfn, v->bad)) {
			__clear_bit(pfn, v->map);
			continue;
		}
		/* Retired while allocated: it leaves the allocator now. */
		v->owner[pfn] = AMDX_VRAM_NO_OWNER;
		v->retire_pending--;
		v->retired++;
		p->retired++;
	}
	p->used -= npages;
	v->used -= npages;
	v->owner_used[owner] -= npages;
	return 0;
}

/**
 * amdx_vram_try_free() - free a run of pages, reporting misuse
 * @v: allocator.
 * @first_pfn: first page of the run.
 * @npages: pages in the run, at least 1.
 * @owner: the owner they were allocated for.
 *
 * Frees every page or, on error, none; no counter changes then.  For
 * callers that free on behalf of someone else and want to check;
 * amdx_vram_free() and amdx_vram_free_contig() warn instead.
 *
 * Context: any context but interrupt; takes a spinlock.
 * Return: 0, -EINVAL for a bad @owner or a run that is empty, beyond the
 * VRAM or not inside one partition, -ENOENT if a page is not allocated
 * (double free), -EPERM if a page belongs to another owner.
 */
int amdx_vram_try_free(struct amdx_vram *v, u64 first_pfn, u64 npages,
		       u32 owner)
{
	int ret;

	spin_lock(&v->lock);
	ret = amdx_vram_release(v, first_pfn, npages, owner);
	spin_unlock(&v->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_vram_try_free);

/**
 * amdx_vram_free() - free one page
 * @v: allocator.
 * @pfn: page from amdx_vram_alloc() or part of a contiguous run.
 * @owner: the owner it was allocated for.
 *
 * A double free, a pfn out of range or a wrong owner is reported once
 * (WARN_ONCE) and ignored; no counter changes.
 *
 * Context: any context but interrupt; takes a spinlock.
 */
void amdx_vram_free(struct amdx_vram *v, u64 pfn, u32 owner)
{
	int ret = amdx_vram_try_free(v, pfn, 1, owner);

	WARN_ONCE(ret, "amdx_vram: bad free of pfn %llu by owner %u: %pe\n",
		  pfn, owner, ERR_PTR(ret));
}
EXPORT_SYMBOL_GPL(amdx_vram_free);

/**
 * amdx_vram_free_page() - free one page, whoever holds it
 * @v: allocator.
 * @pfn: an allocated page.
 *
 * For the provider's page_free(), which knows the page but not its owner:
 * the owner look-up and the free in one lock round trip.  A page that is
 * not allocated (double free) or beyond the VRAM is reported once
 * (WARN_ONCE) and ignored.
 *
 * Context: any context but interrupt; takes a spinlock.
 */
void amdx_vram_free_page(struct amdx_vram *v, u64 pfn)
{
	int ret = -EINVAL;

	spin_lock(&v->lock);
	/* A retired page out of the allocator has no owner: -ENOENT. */
	if (pfn < v->npages)
		ret = amdx_vram_release(v, pfn, 1, v->owner[pfn] ==
					AMDX_VRAM_NO_OWNER ? 0 : v->owner[pfn]);
	spin_unlock(&v->lock);
	WARN_ONCE(ret, "amdx_vram: bad free of pfn %llu: %pe\n", pfn,
		  ERR_PTR(ret));
}
EXPORT_SYMBOL_GPL(amdx_vram_free_page);

/**
 * amdx_vram_free_contig() - free a run of pages
 * @v: allocator.
 * @first_pfn: first page of the run.
 * @npages: pages in the run.
 * @owner: the owner they were allocated for.
 *
 * Every page must be allocated to @owner and inside one partition;
 * otherwise the call is reported once (WARN_ONCE) and nothing is freed.
 *
 * Context: any context but interrupt; takes a spinlock.
 */
void amdx_vram_free_contig(struct amdx_vram *v, u64 first_pfn, u64 npages,
			   u32 owner)
{
	int ret = amdx_vram_try_free(v, first_pfn, npages, owner);

	WARN_ONCE(ret, "amdx_vram: bad free of %llu pages at %llu by owner %u: %pe\n",
		  npages, first_pfn, owner, ERR_PTR(ret));
}
EXPORT_SYMBOL_GPL(amdx_vram_free_contig);

/**
 * amdx_vram_repartition() - change the number of memory partitions
 * @v: allocator.
 * @num_partitions: new partition count, 1 .. %AMDX_VRAM_MAX_PARTITIONS,
 *	dividing the page count.
 *
 * Quotas survive; the layout is recomputed from scratch.
 *
 * Return: 0, -EINVAL for a bad @num_partitions, -EBUSY if any page is
 * allocated.
 */
int amdx_vram_repartition(struct amdx_vram *v, u32 num_partitions)
{
	int ret = 0;

	if (!amdx_vram_layout_valid(v->npages, num_partitions))
		return -EINVAL;

	spin_lock(&v->lock);
	if (v->used)
		ret = -EBUSY;
	else
		amdx_vram_layout(v, num_partitions);
	spin_unlock(&v->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_vram_repartition);

/**
 * amdx_vram_npages() - size of the VRAM
 * @v: allocator.
 *
 * Return: pages of VRAM.
 */
u64 amdx_vram_npages(struct amdx_vram *v)
{
	return v->npages;
}
EXPORT_SYMBOL_GPL(amdx_vram_npages);

/**
 * amdx_vram_used() - pages allocated
 * @v: allocator.
 *
 * Return: pages allocated over all partitions and owners.
 */
u64 amdx_vram_used(struct amdx_vram *v)
{
	u64 used;

	spin_lock(&v->lock);
	used = v->used;
	spin_unlock(&v->lock);
	return used;
}
EXPORT_SYMBOL_GPL(amdx_vram_used);

/**
 * amdx_vram_num_partitions() - current partition count
 * @v: allocator.
 *
 * Return: number of memory partitions.
 */
u32 amdx_vram_num_partitions(struct amdx_vram *v)
{
	u32 n;

	spin_lock(&v->lock);
	n = v->num_parts;
	spin_unlock(&v->lock);
	return n;
}
EXPORT_SYMBOL_GPL(amdx_vram_num_partitions);

enum amdx_vram_part_field {
	AMDX_VRAM_PART_BASE,
	AMDX_VRAM_PART_SIZE,
	AMDX_VRAM_PART_FREE,
};

static u64 amdx_vram_part_get(struct amdx_vram *v, u32 part,
			      enum amdx_vram_part_field field)
{
	struct amdx_vram_part *p;
	u64 val = 0;

	spin_lock(&v->lock);
	if (part < v->num_parts) {
		p = &v->parts[part];
		switch (field) {
		case AMDX_VRAM_PART_BASE:
			val = p->base;
			break;
		case AMDX_VRAM_PART_SIZE:
			val = p->size;
			break;
		case AMDX_VRAM_PART_FREE:
			val = p->size - p->used - p->retired;
			break;
		}
	}
	spin_unlock(&v->lock);
	return val;
}

/**
 * amdx_vram_part_base() - first page of a partition
 * @v: allocator.
 * @part: partition.
 *
 * Return: the first pfn of @part, 0 if @part does not exist.
 */
u64 amdx_vram_part_base(struct amdx_vram *v, u32 part)
{
	return amdx_vram_part_get(v, part, AMDX_VRAM_PART_BASE);
}
EXPORT_SYMBOL_GPL(amdx_vram_part_base);

/**
 * amdx_vram_part_size() - size of a partition
 * @v: allocator.
 * @part: partition.
 *
 * Return: pages in @part, 0 if @part does not exist.
 */
u64 amdx_vram_part_size(struct amdx_vram *v, u32 part)
{
	return amdx_vram_part_get(v, part, AMDX_VRAM_PART_SIZE);
}
EXPORT_SYMBOL_GPL(amdx_vram_part_size);

/**
 * amdx_vram_part_free() - free pages in a partition
 * @v: allocator.
 * @part: partition.
 *
 * Return: pages not allocated in @part, 0 if @part does not exist.
 */
u64 amdx_vram_part_free(struct amdx_vram *v, u32 part)
{
	return amdx_vram_part_get(v, part, AMDX_VRAM_PART_FREE);
}
EXPORT_SYMBOL_GPL(amdx_vram_part_free);

/**
 * amdx_vram_pfn_partition() - partition a page belongs to
 * @v: allocator.
 * @pfn: page.
 *
 * Return: the partition index, -EINVAL if @pfn is beyond the VRAM.
 */
int amdx_vram_pfn_partition(struct amdx_vram *v, u64 pfn)
{
	int part;

	if (pfn >= v->npages)
		return -EINVAL;

	spin_lock(&v->lock);
	part = div64_u64(pfn, v->parts[0].size);
	spin_unlock(&v->lock);
	return part;
}
EXPORT_SYMBOL_GPL(amdx_vram_pfn_partition);

/**
 * amdx_vram_pfn_owner() - owner of an allocated page
 * @v: allocator.
 * @pfn: page.
 *
 * Return: the owner, -EINVAL if @pfn is beyond the VRAM, -ENOENT if it is
 * not allocated (free, or retired and out of the allocator).
 */
int amdx_vram_pfn_owner(struct amdx_vram *v, u64 pfn)
{
	int owner;

	if (pfn >= v->npages)
		return -EINVAL;

	spin_lock(&v->lock);
	owner = test_bit(pfn, v->map) && v->owner[pfn] != AMDX_VRAM_NO_OWNER ?
		v->owner[pfn] : -ENOENT;
	spin_unlock(&v->lock);
	return owner;
}
EXPORT_SYMBOL_GPL(amdx_vram_pfn_owner);

/**
 * amdx_vram_owner_next() - the next page an owner holds
 * @v: allocator.
 * @owner: owner.
 * @from: first pfn to look at.
 *
 * Looks at @owner's own bitmap only, and at nothing when @owner holds no
 * page: walking every page of an owner costs its pages (plus one bit per
 * page of VRAM read a word at a time), not a look at every page.  Pages
 * allocated or freed meanwhile may or may not be found.
 *
 * Context: any context but interrupt; takes a spinlock.
 * Return: the first pfn at or after @from allocated to @owner, or
 * amdx_vram_npages() when there is none (or @owner is bad).
 */
u64 amdx_vram_owner_next(struct amdx_vram *v, u32 owner, u64 from)
{
	return amdx_vram_owner_next_below(v, owner, from, v->npages);
}
EXPORT_SYMBOL_GPL(amdx_vram_owner_next);

/**
 * amdx_vram_owner_next_below() - the next page an owner holds before a limit
 * @v: allocator.
 * @owner: owner.
 * @from: first pfn to look at.
 * @end: one past the last pfn to look at (at most the VRAM's size).
 *
 * As amdx_vram_owner_next(), looking at [@from, @end) only: a walk of one
 * memory partition stops at its end.
 *
 * Context: any context but interrupt; takes a spinlock.
 * Return: the first pfn in [@from, @end) allocated to @owner, or @end when
 * there is none (or @owner is bad).
 */
u64 amdx_vram_owner_next_below(struct amdx_vram *v, u32 owner, u64 from,
			       u64 end)
{
	u64 pfn;

	end = min(end, v->npages);
	if (owner >= AMDX_VRAM_MAX_OWNERS || from >= end)
		return end;

	spin_lock(&v->lock);
	pfn = v->owner_used[owner] ?
	      find_next_bit(v->owner_map[owner], end, from) : end;
	v->scanned += min(pfn + 1, end) - from;
	spin_unlock(&v->lock);
	return pfn;
}
EXPORT_SYMBOL_GPL(amdx_vram_owner_next_below);

/**
 * amdx_vram_scanned() - page entries walks by index looked at so far
 * @v: allocator.
 *
 * What amdx_vram_holder_run() and amdx_vram_owner_next() looked at since
 * @v was created: the cost of finding pages by index, which tests assert
 * (debugfs ``vram_scanned``).
 *
 * Return: the count.
 */
u64 amdx_vram_scanned(struct amdx_vram *v)
{
	u64 n;

	spin_lock(&v->lock);
	n = v->scanned;
	spin_unlock(&v->lock);
	return n;
}
EXPORT_SYMBOL_GPL(amdx_vram_scanned);

/* Under v->users_lock: the holders counted against @user. */
static u32 amdx_vram_user_holders(struct amdx_vram *v, u32 user)
{
	void *e = xa_load(&v->users, user);

	return e ? xa_to_value(e) : 0;
}

/* Under v->users_lock: count one more (@d 1) or one less (-1) of @user. */
static int amdx_vram_user_count(struct amdx_vram *v, u32 user, int d)
{
	u32 n = amdx_vram_user_holders(v, user) + d;

	if (!n) {
		xa_erase(&v->users, user);
		return 0;
	}
	return xa_err(xa_store(&v->users, user, xa_mk_value(n),
			       GFP_KERNEL_ACCOUNT));
}

/**
 * amdx_vram_holder_new() - a new holder
 * @v: allocator.
 * @user: whom it is counted against (a kuid's value).
 * @user_max: @user may have at most this many holders with the new one;
 *	0: the new one is under no per-user cap and counts against none.
 * @id: out: its id, 1 .. %AMDX_VRAM_MAX_HOLDERS.
 *
 * Ids are handed out cyclically, not lowest free first: whoever read an
 * id (eviction choosing a holder without the lock, a page copying its
 * holder to its replacement) and uses it a little later never meets a
 * new holder under an id just dropped, unless every id was handed out
 * in between.  The entry and the user's count are charged to the
 * caller's memory cgroup.
 *
 * Context: process context, may sleep.
 * Return: 0; -ENOSPC when @user has @user_max holders or every id is
 * taken; -ENOMEM.
 */
int amdx_vram_holder_new(struct amdx_vram *v, u32 user, u32 user_max,
			 u32 *id)
{
	struct amdx_vram_holder *h;
	int ret;

	h = kzalloc(sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (!h)
		return -ENOMEM;
	h->user = user;
	h->counted = user_max != 0;
	mutex_lock(&v->users_lock);
	if (h->counted && amdx_vram_user_holders(v, user) >= user_max) {
		ret = -ENOSPC;
		goto out_free;
	}
	ret = xa_alloc_cyclic(&v->holders, id, h,
			      XA_LIMIT(1, AMDX_VRAM_MAX_HOLDERS),
			      &v->holder_next, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		if (ret == -EBUSY)
			ret = -ENOSPC;
		goto out_free;
	}
	if (h->counted) {
		ret = amdx_vram_user_count(v, user, 1);
		if (ret) {
			/* No page names the id yet: nobody looked it up. */
			spin_lock(&v->lock);
			xa_erase(&v->holders, *id);
			spin_unlock(&v->lock);
			goto out_free;
		}
	}
	mutex_unlock(&v->users_lock);
	return 0;

out_free:
	mutex_unlock(&v->users_lock);
	kfree(h);
	return ret;
}
EXPORT_SYMBOL_GPL(amdx_vram_holder_new);

/**
 * amdx_vram_holder_put() - drop a holder
 * @v: allocator.
 * @id: a holder from amdx_vram_holder_new().
 *
 * The pages it still has pass to holder 0 (nobody), a step of
 * %AMDX_VRAM_HOLDER_STEP pages per lock round trip, and the id is free
 * for a new holder.
 *
 * Context: process context, may sleep.
 */
void amdx_vram_holder_put(struct amdx_vram *v, u32 id)
{
	struct amdx_vram_holder *h;
	u64 pfn, end;

	if (id == AMDX_VRAM_NO_HOLDER)
		return;
	for (;;) {
		spin_lock(&v->lock);
		h = xa_load(&v->holders, id);
		if (!h || !h->total)
			break;
		spin_unlock(&v->lock);
		/* A device-side move may hand it a page meanwhile: look again. */
		for (pfn = 0; pfn < v->npages; pfn = end) {
			end = min(v->npages, pfn + AMDX_VRAM_HOLDER_STEP);
			spin_lock(&v->lock);
			for (; pfn < end; pfn++) {
				if (v->holder[pfn] != id)
					continue;
				amdx_vram_holder_count(v, pfn, -1);
				v->holder[pfn] = AMDX_VRAM_NO_HOLDER;
				amdx_vram_holder_count(v, pfn, 1);
			}
			spin_unlock(&v->lock);
			cond_resched();
		}
	}
	/* Under v->lock: no look-up can find it once this returns. */
	if (v->last_id == id) {
		v->last_id = AMDX_VRAM_NO_HOLDER;
		v->last = NULL;
	}
	if (h)
		xa_erase(&v->holders, id);
	spin_unlock(&v->lock);
	if (h && h->counted) {
		mutex_lock(&v->users_lock);
		amdx_vram_user_count(v, h->user, -1);
		mutex_unlock(&v->users_lock);
	}
	kfree(h);
}
EXPORT_SYMBOL_GPL(amdx_vram_holder_put);

/**
 * amdx_vram_hold_pages() - record who holds allocated pages
 * @v: allocator.
 * @pfns: the pages.
 * @n: how many.
 * @id: the holder, 0 (nobody) or from amdx_vram_holder_new(); a holder
 *	dropped meanwhile counts as nobody.
 *
 * Pages that are not allocated (or beyond the VRAM) are left alone.
 *
 * Context: any context but interrupt; takes a spinlock.
 */
void amdx_vram_hold_pages(struct amdx_vram *v, const u64 *pfns, u32 n,
			  u32 id)
{
	u32 i;

	spin_lock(&v->lock);
	if (!amdx_vram_holder_get(v, id))
		id = AMDX_VRAM_NO_HOLDER;
	for (i = 0; i < n; i++) {
		u64 pfn = pfns[i];

		if (pfn >= v->npages || !test_bit(pfn, v->map) ||
		    v->owner[pfn] == AMDX_VRAM_NO_OWNER)
			continue;
		amdx_vram_holder_count(v, pfn, -1);
		v->holder[pfn] = id;
		amdx_vram_holder_count(v, pfn, 1);
	}
	spin_unlock(&v->lock);
}
EXPORT_SYMBOL_GPL(amdx_vram_hold_pages);

/**
 * amdx_vram_pfn_holder() - who holds a page
 * @v: allocator.
 * @pfn: page.
 *
 * Return: its holder, 0 (nobody) for a page that is free or beyond the
 * VRAM.
 */
u32 amdx_vram_pfn_holder(struct amdx_vram *v, u64 pfn)
{
	u32 id;

	if (pfn >= v->npages)
		return AMDX_VRAM_NO_HOLDER;
	spin_lock(&v->lock);
	id = v->holder[pfn];
	spin_unlock(&v->lock);
	return id;
}
EXPORT_SYMBOL_GPL(amdx_vram_pfn_holder);

/**
 * amdx_vram_holder_used() - the pages a holder has
 * @v: allocator.
 * @id: the holder, 0 for nobody.
 * @pages: out, may be NULL: per memory partition,
 *	%AMDX_VRAM_MAX_PARTITIONS entries.
 *
 * Return: its pages over all partitions (0, and @pages zeroed, for an
 * unknown @id).
 */
u64 amdx_vram_holder_used(struct amdx_vram *v, u32 id, u64 *pages)
{
	struct amdx_vram_holder *h;
	u64 total = 0;

	if (pages)
		memset(pages, 0, AMDX_VRAM_MAX_PARTITIONS * sizeof(*pages));
	spin_lock(&v->lock);
	h = amdx_vram_holder_get(v, id);
	if (h) {
		total = h->total;
		if (pages)
			memcpy(pages, h->pages, sizeof(h->pages));
	}
	spin_unlock(&v->lock);
	return total;
}
EXPORT_SYMBOL_GPL(amdx_vram_holder_used);

/**
 * amdx_vram_holder_run() - find a run of pages of one holder
 * @v: allocator.
 * @id: the holder, 0 for nobody (allocated pages held by no one).
 * @pos: in: the first page to look at; out: the run's first page, or
 *	where to go on looking when none was found.
 * @end: one past the last page to look at (at most the VRAM's size).
 *
 * Looks at up to %AMDX_VRAM_HOLDER_STEP pages per call, so a caller that
 * goes over the whole VRAM holds the lock a bounded time per step and
 * can reschedule between steps.  Pages allocated or freed meanwhile may
 * or may not be found.
 *
 * Return: the length of the run of pages held by @id starting at *@pos,
 * 0 when the step found none (*@pos then moved on; *@pos >= @end: done).
 */
u64 amdx_vram_holder_run(struct amdx_vram *v, u32 id, u64 *pos, u64 end)
{
	u64 pfn = *pos, stop, n = 0;

	end = min(end, v->npages);
	if (pfn >= end) {
		*pos = end;
		return 0;
	}
	stop = min(end, pfn + AMDX_VRAM_HOLDER_STEP);
	spin_lock(&v->lock);
	for (; pfn < stop; pfn++) {
		if (v->holder[pfn] != id)
			continue;
		if (id != AMDX_VRAM_NO_HOLDER ||
		    (test_bit(pfn, v->map) &&
		     v->owner[pfn] != AMDX_VRAM_NO_OWNER))
			break;
	}
	while (pfn + n < stop && v->holder[pfn + n] == id &&
	       (id != AMDX_VRAM_NO_HOLDER ||
		(test_bit(pfn + n, v->map) &&
		 v->owner[pfn + n] != AMDX_VRAM_NO_OWNER)))
		n++;
	/* the entries before the run, the run, the one that ended it */
	v->scanned += min(pfn + n + 1, stop) - *pos;
	*pos = pfn;
	spin_unlock(&v->lock);
	return n;
}
EXPORT_SYMBOL_GPL(amdx_vram_holder_run);

/**
 * amdx_vram_set_quota() - limit the pages an owner may hold
 * @v: allocator.
 * @owner: owner.
 * @npages: limit in pages, 0 = unlimited.  A limit below current usage is
 *	accepted; further allocations then fail until enough is freed.
 *
 * Return: 0, -EINVAL for a bad @owner.
 */
int amdx_vram_set_quota(struct amdx_vram *v, u32 owner, u64 npages)
{
	if (owner >= AMDX_VRAM_MAX_OWNERS)
		return -EINVAL;

	spin_lock(&v->lock);
	v->owner_quota[owner] = npages;
	spin_unlock(&v->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(amdx_vram_set_quota);

/**
 * amdx_vram_quota() - an owner's limit
 * @v: allocator.
 * @owner: owner.
 *
 * Return: the limit in pages, 0 for unlimited or a bad @owner.
 */
u64 amdx_vram_quota(struct amdx_vram *v, u32 owner)
{
	u64 quota;

	if (owner >= AMDX_VRAM_MAX_OWNERS)
		return 0;

	spin_lock(&v->lock);
	quota = v->owner_quota[owner];
	spin_unlock(&v->lock);
	return quota;
}
EXPORT_SYMBOL_GPL(amdx_vram_quota);

/**
 * amdx_vram_owner_used() - pages an owner holds
 * @v: allocator.
 * @owner: owner.
 *
 * Return: pages allocated to @owner over all partitions, 0 for a bad
 * @owner.
 */
u64 amdx_vram_owner_used(struct amdx_vram *v, u32 owner)
{
	u64 used;

	if (owner >= AMDX_VRAM_MAX_OWNERS)
		return 0;

	spin_lock(&v->lock);
	used = v->owner_used[owner];
	spin_unlock(&v->lock);
	return used;
}
EXPORT_SYMBOL_GPL(amdx_vram_owner_used);

/**
 * amdx_vram_retire() - take a page out of service for good
 * @v: allocator.
 * @pfn: page.
 *
 * A free page leaves the allocator at once.  An allocated page stays with
 * its owner (its data may still be moved off it) and leaves the allocator
 * when it is freed.  Retiring a retired page changes nothing.
 *
 * Context: any context but interrupt; takes a spinlock.
 * Return: 0, -EINVAL if @pfn is beyond the VRAM.
 */
int amdx_vram_retire(struct amdx_vram *v, u64 pfn)
{
	struct amdx_vram_part *p;

	if (pfn >= v->npages)
		return -EINVAL;

	spin_lock(&v->lock);
	if (__test_and_set_bit(pfn, v->bad))
		goto out_unlock;
	if (test_bit(pfn, v->map)) {
		v->retire_pending++;
		goto out_unlock;
	}
	p = &v->parts[div64_u64(pfn, v->parts[0].size)];
	__set_bit(pfn, v->map);
	v->owner[pfn] = AMDX_VRAM_NO_OWNER;
	v->retired++;
	p->retired++;
out_unlock:
	spin_unlock(&v->lock);
	return 0;
}
EXPORT_SYMBOL_GPL(amdx_vram_retire);

/**
 * amdx_vram_pfn_retired() - whether a page is retired
 * @v: allocator.
 * @pfn: page.
 *
 * Return: true for a retired page (allocated or not), false for any other
 * or a @pfn beyond the VRAM.
 */
bool amdx_vram_pfn_retired(struct amdx_vram *v, u64 pfn)
{
	bool bad;

	if (pfn >= v->npages)
		return false;

	spin_lock(&v->lock);
	bad = test_bit(pfn, v->bad);
	spin_unlock(&v->lock);
	return bad;
}
EXPORT_SYMBOL_GPL(amdx_vram_pfn_retired);

/**
 * amdx_vram_retired() - count retired pages
 * @v: allocator.
 * @retired: out: retired pages out of the allocator.
 * @pending: out: retired pages still allocated.
 */
void amdx_vram_retired(struct amdx_vram *v, u64 *retired, u64 *pending)
{
	spin_lock(&v->lock);
	*retired = v->retired;
	*pending = v->retire_pending;
	spin_unlock(&v->lock);
}
EXPORT_SYMBOL_GPL(amdx_vram_retired);
