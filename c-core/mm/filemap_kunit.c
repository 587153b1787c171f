// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of generic_perform_write() against a ->write_end() that
 * rejects short copies.
 *
 * When ->write_end() returns 0 although some bytes were copied,
 * generic_perform_write() retries the chunk with just what was copied,
 * halving the chunk if it is larger than a page.  No filesystem of this
 * tree both rejects short copies and caches files in large folios, so
 * only these tests take that branch with a chunk larger than a page.
 *
 * Each test writes into a file of a private pseudo filesystem whose
 * ->write_begin() creates folios of up to 16 pages and whose ->write_end()
 * accepts only complete copies, from user memory mapped into the test
 * thread with pages missing from the page tables or inaccessible, so that
 * the atomic copy stops at a chosen byte.  Every ->write_begin() and
 * ->write_end() is recorded and compared with the calls expected.
 */

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/pagemap.h>
#include <linux/pseudo_fs.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>

#define FK_MAGIC	0x666d6b74	/* "fmkt" */
#define FK_ORDER	4
#define FK_PG		PAGE_SIZE
#define FK_HALF		(PAGE_SIZE / 2)
#define FK_MAX_CALLS	32

/* One ->write_begin() and the ->write_end() that followed it. */
struct fk_call {
	loff_t pos;
	unsigned int len;
	size_t folio_size;
	loff_t end_pos;
	unsigned int end_len;
	unsigned int copied;
	int ret;
	bool ended;
};

struct fk_ctx {
	struct vfsmount *mnt;
	struct file *file;
	unsigned int nr_calls;
	unsigned int nr_ends;
	struct fk_call calls[FK_MAX_CALLS];
};

/* A call expected: position, length, folio size in pages, bytes copied. */
struct fk_want {
	loff_t pos;
	unsigned int len;
	unsigned int folio_pages;
	unsigned int copied;
};

static int fk_write_begin(struct file *file, struct address_space *mapping,
			  loff_t pos, unsigned int len, struct folio **foliop,
			  void **fsdata)
{
	struct fk_ctx *ctx = mapping->host->i_private;
	struct folio *folio;
	size_t from;

	folio = __filemap_get_folio(mapping, pos >> PAGE_SHIFT,
				    FGP_WRITEBEGIN | fgf_set_order(len),
				    mapping_gfp_mask(mapping));
	if (IS_ERR(folio))
		return PTR_ERR(folio);

	if (ctx->nr_calls < FK_MAX_CALLS) {
		struct fk_call *call = &ctx->calls[ctx->nr_calls];

		call->pos = pos;
		call->len = len;
		call->folio_size = folio_size(folio);
	}
	ctx->nr_calls++;

	/*
	 * The page cache is the only copy of the data, as on ramfs: a new
	 * folio is zeroed around the bytes to be written, so that accepting
	 * a complete copy makes all of it uptodate.
	 */
	from = offset_in_folio(folio, pos);
	len = min_t(size_t, len, folio_size(folio) - from);
	if (!folio_test_uptodate(folio) && len != folio_size(folio))
		folio_zero_segments(folio, 0, from, from + len,
				    folio_size(folio));

	*foliop = folio;
	return 0;
}

/* Like simple_write_end(), but a short copy is rejected, not zero-filled. */
static int fk_write_end(struct file *file, struct address_space *mapping,
			loff_t pos, unsigned int len, unsigned int copied,
			struct folio *folio, void *fsdata)
{
	struct inode *inode = mapping->host;
	struct fk_ctx *ctx = inode->i_private;
	int ret = 0;

	if (copied == len) {
		if (!folio_test_uptodate(folio))
			folio_mark_uptodate(folio);
		if (pos + copied > inode->i_size)
			i_size_write(inode, pos + copied);
		folio_mark_dirty(folio);
		ret = copied;
	}
	folio_unlock(folio);
	folio_put(folio);

	if (ctx->nr_ends < FK_MAX_CALLS) {
		struct fk_call *call = &ctx->calls[ctx->nr_ends];

		call->end_pos = pos;
		call->end_len = len;
		call->copied = copied;
		call->ret = ret;
		call->ended = true;
	}
	ctx->nr_ends++;
	return ret;
}

static const struct address_space_operations fk_aops = {
	.write_begin	= fk_write_begin,
	.write_end	= fk_write_end,
	.dirty_folio	= noop_dirty_folio,
};

static const struct file_operations fk_fops = {
};

static int fk_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, FK_MAGIC) ? 0 : -ENOMEM;
}

static struct file_system_type fk_fs_type = {
	.name		= "filemap_kunit",
	.init_fs_context = fk_init_fs_context,
	.kill_sb	= kill_anon_super,
};

KUNIT_DEFINE_ACTION_WRAPPER(fk_kern_unmount, kern_unmount, struct vfsmount *);
KUNIT_DEFINE_ACTION_WRAPPER(fk_vfree, vfree, const void *);

static void fk_fput(void *data)
{
	fput(data);
	/*
	 * A kernel thread's fput() is left to a workqueue: release the
	 * file, and so evict the inode, before the mount goes away.
	 */
	flush_delayed_fput();
}

/* A file of at most 16-page folios on a mount of its own. */
static struct fk_ctx *fk_setup(struct kunit *test)
{
	struct fk_ctx *ctx;
	struct inode *inode;
	struct file *file;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);

	ctx->mnt = kern_mount(&fk_fs_type);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ctx->mnt);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fk_kern_unmount, ctx->mnt));

	inode = new_inode(ctx->mnt->mnt_sb);
	KUNIT_ASSERT_NOT_NULL(test, inode);
	inode->i_ino = get_next_ino();
	inode->i_mode = S_IFREG | 0600;
	inode->i_private = ctx;
	inode->i_mapping->a_ops = &fk_aops;
	mapping_set_folio_order_range(inode->i_mapping, 0, FK_ORDER);

	file = alloc_file_pseudo(inode, ctx->mnt, "filemap_kunit", O_RDWR,
				 &fk_fops);
	if (IS_ERR(file))
		iput(inode);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	ctx->file = file;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fk_fput, file));

	KUNIT_ASSERT_EQ(test, mapping_max_folio_size(inode->i_mapping),
			FK_PG << FK_ORDER);
	return ctx;
}

/* A byte pattern that differs from page to page. */
static u8 *fk_pattern(struct kunit *test, size_t len)
{
	u8 *buf = vmalloc(len);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fk_vfree, buf));
	for (size_t k = 0; k < len; k++)
		buf[k] = (k >> PAGE_SHIFT) * 37 + k * 7 + 1;
	return buf;
}

/*
 * Map user memory into the test thread's mm.  The mappings go with that
 * mm when the test thread exits.
 */
static unsigned long fk_mmap(struct kunit *test, unsigned long addr,
			     size_t size, unsigned long prot,
			     unsigned long flags)
{
	unsigned long got;

	if (addr)
		flags |= MAP_FIXED;
	got = kunit_vm_mmap(test, NULL, addr, size, prot, flags, 0);
	KUNIT_ASSERT_FALSE_MSG(test, !got || IS_ERR_VALUE(got),
			       "kunit_vm_mmap() failed: %ld", (long)got);
	if (addr)
		KUNIT_ASSERT_EQ(test, got, addr);
	return got;
}

/*
 * A shared anonymous mapping of @pages pages holding @buf at @offset, all
 * resident but page @hole: that one is dropped from the page tables and
 * keeps its data in the page cache behind the mapping.  An atomic copy
 * stops at it; faulting it in maps it again.
 */
static unsigned long fk_source_with_hole(struct kunit *test, const u8 *buf,
					 size_t len, size_t offset,
					 unsigned int pages, unsigned int hole)
{
	unsigned long uaddr;

	uaddr = fk_mmap(test, 0, pages * FK_PG, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS);
	KUNIT_ASSERT_EQ(test, 0,
			copy_to_user((void __user *)(uaddr + offset), buf, len));
	KUNIT_ASSERT_EQ(test, 0, do_madvise(current->mm, uaddr + hole * FK_PG,
					    FK_PG, MADV_DONTNEED));
	return uaddr;
}

static ssize_t fk_write(struct kunit *test, struct fk_ctx *ctx,
			unsigned long uaddr, size_t len, struct iov_iter *from,
			loff_t *end_pos)
{
	struct inode *inode = file_inode(ctx->file);
	struct kiocb iocb;
	ssize_t ret;

	init_sync_kiocb(&iocb, ctx->file);
	iov_iter_ubuf(from, ITER_SOURCE, (void __user *)uaddr, len);
	/* As in ->write_iter(): ->write_end() moves i_size under the lock. */
	inode_lock(inode);
	ret = generic_perform_write(&iocb, from);
	inode_unlock(inode);
	*end_pos = iocb.ki_pos;
	return ret;
}

/* Skip if no 16-page folio could be had: then nothing large was written. */
static void fk_need_large_folio(struct kunit *test, struct fk_ctx *ctx)
{
	KUNIT_ASSERT_GT(test, ctx->nr_calls, 0);
	if (ctx->calls[0].folio_size != FK_PG << FK_ORDER)
		kunit_skip(test, "no order-%u folio for the first chunk (got %zu bytes)",
			   FK_ORDER, ctx->calls[0].folio_size);
}

static bool fk_call_is(const struct fk_call *got, const struct fk_want *want)
{
	unsigned int ret = want->copied == want->len ? want->copied : 0;

	return got->ended && got->pos == want->pos && got->len == want->len &&
	       got->end_pos == want->pos && got->end_len == want->len &&
	       got->folio_size == (size_t)want->folio_pages * FK_PG &&
	       got->copied == want->copied && got->ret == ret;
}

/* Compare the calls made with those expected; list both if they differ. */
static void fk_expect_calls(struct kunit *test, struct fk_ctx *ctx,
			    const struct fk_want *want, unsigned int nr_want)
{
	unsigned int nr = min(ctx->nr_calls, FK_MAX_CALLS);
	bool same = ctx->nr_calls == nr_want && ctx->nr_ends == nr_want;

	for (unsigned int k = 0; same && k < nr_want; k++)
		same = fk_call_is(&ctx->calls[k], &want[k]);
	if (same)
		return;

	KUNIT_FAIL(test, "%u ->write_begin() and %u ->write_end() calls, %u expected; they differ",
		   ctx->nr_calls, ctx->nr_ends, nr_want);
	for (unsigned int k = 0; k < nr; k++) {
		const struct fk_call *c = &ctx->calls[k];

		kunit_info(test, "got  %2u: pos %lld len %u folio %zu, end pos %lld len %u copied %u ret %d",
			   k, c->pos, c->len, c->folio_size, c->end_pos,
			   c->end_len, c->copied, c->ret);
	}
	for (unsigned int k = 0; k < nr_want; k++)
		kunit_info(test, "want %2u: pos %lld len %u folio %lu copied %u",
			   k, want[k].pos, want[k].len,
			   want[k].folio_pages * FK_PG, want[k].copied);
}

/* The first @len bytes of the file are @buf, in uptodate folios. */
static void fk_expect_data(struct kunit *test, struct fk_ctx *ctx,
			   const u8 *buf, size_t len)
{
	struct address_space *mapping = ctx->file->f_mapping;
	u8 *got = vmalloc(len);
	size_t pos = 0;

	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, fk_vfree, got));
	while (pos < len) {
		struct folio *folio = filemap_get_folio(mapping, pos >> PAGE_SHIFT);
		size_t offset, n;

		KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, folio, "no folio at %zu", pos);
		offset = offset_in_folio(folio, pos);
		n = min(len - pos, folio_size(folio) - offset);
		KUNIT_EXPECT_TRUE_MSG(test, folio_test_uptodate(folio),
				      "folio at %zu not uptodate", pos);
		memcpy_from_folio(got + pos, folio, offset, n);
		folio_put(folio);
		pos += n;
	}
	for (pos = 0; pos < len; pos++) {
		if (got[pos] != buf[pos]) {
			KUNIT_FAIL(test, "file byte %zu is %#x, expected %#x",
				   pos, got[pos], buf[pos]);
			break;
		}
	}
}

/*
 * Write @len bytes from @uaddr and expect the first @written of them, @buf,
 * in the file, through the ->write_begin() and ->write_end() calls @want.
 */
static void fk_check_write(struct kunit *test, struct fk_ctx *ctx, unsigned long uaddr,
			   size_t len, const u8 *buf, size_t written,
			   const struct fk_want *want, unsigned int nr_want)
{
	struct iov_iter from;
	loff_t end;

	KUNIT_EXPECT_EQ(test, fk_write(test, ctx, uaddr, len, &from, &end),
			(ssize_t)written);
	fk_need_large_folio(test, ctx);
	fk_expect_calls(test, ctx, want, nr_want);
	KUNIT_EXPECT_EQ(test, end, written);
	KUNIT_EXPECT_EQ(test, iov_iter_count(&from), len - written);
	KUNIT_EXPECT_EQ(test, i_size_read(file_inode(ctx->file)), written);
	fk_expect_data(test, ctx, buf, written);
}

/*
 * A 16-page write into one 16-page folio, from a source whose page 10 is
 * not mapped: the first copy stops after 10 pages and is rejected, and the
 * chunk is retried at 8 pages; the next copy stops after 2 pages and the
 * chunk, halved again, is retried at those 2.  The copy that then starts
 * at the missing page makes no progress: the source is faulted in and the
 * chunk is not halved.
 */
static void fk_short_copy_halves_chunk(struct kunit *test)
{
	static const struct fk_want want[] = {
		{ 0,		16 * FK_PG,	16,	10 * FK_PG },
		{ 0,		8 * FK_PG,	16,	8 * FK_PG },
		{ 8 * FK_PG,	8 * FK_PG,	16,	2 * FK_PG },
		{ 8 * FK_PG,	2 * FK_PG,	16,	2 * FK_PG },
		{ 10 * FK_PG,	2 * FK_PG,	16,	0 },
		{ 10 * FK_PG,	2 * FK_PG,	16,	2 * FK_PG },
		{ 12 * FK_PG,	4 * FK_PG,	16,	4 * FK_PG },
	};
	const size_t len = 16 * FK_PG;
	struct fk_ctx *ctx = fk_setup(test);
	u8 *buf = fk_pattern(test, len);
	unsigned long uaddr;

	uaddr = fk_source_with_hole(test, buf, len, 0, 16, 10);
	fk_check_write(test, ctx, uaddr, len, buf, len, want, ARRAY_SIZE(want));
}

/*
 * The source starts half a page into its mapping and its page 16 is not
 * mapped, so the copy into the 16-page folio stops half a page before its
 * end.  Each retry that reaches that point copies short again and halves
 * the chunk once more, from 16 pages down to one; at one page a short
 * copy is retried with what was copied but the chunk stays a page, and
 * the two pages past the folio are written a page at a time.
 */
static void fk_short_copy_halves_to_page(struct kunit *test)
{
	static const struct fk_want want[] = {
		{ 0,			16 * FK_PG,	16,	15 * FK_PG + FK_HALF },
		{ 0,			8 * FK_PG,	16,	8 * FK_PG },
		{ 8 * FK_PG,		8 * FK_PG,	16,	7 * FK_PG + FK_HALF },
		{ 8 * FK_PG,		4 * FK_PG,	16,	4 * FK_PG },
		{ 12 * FK_PG,		4 * FK_PG,	16,	3 * FK_PG + FK_HALF },
		{ 12 * FK_PG,		2 * FK_PG,	16,	2 * FK_PG },
		{ 14 * FK_PG,		2 * FK_PG,	16,	FK_PG + FK_HALF },
		{ 14 * FK_PG,		FK_PG,		16,	FK_PG },
		{ 15 * FK_PG,		FK_PG,		16,	FK_HALF },
		{ 15 * FK_PG,		FK_HALF,	16,	FK_HALF },
		{ 15 * FK_PG + FK_HALF,	FK_HALF,	16,	0 },
		{ 15 * FK_PG + FK_HALF,	FK_HALF,	16,	FK_HALF },
		{ 16 * FK_PG,		FK_PG,		1,	FK_PG },
		{ 17 * FK_PG,		FK_PG,		1,	FK_PG },
	};
	const size_t len = 18 * FK_PG;
	struct fk_ctx *ctx = fk_setup(test);
	u8 *buf = fk_pattern(test, len);
	unsigned long uaddr;

	uaddr = fk_source_with_hole(test, buf, len, FK_HALF, 19, 16);
	fk_check_write(test, ctx, uaddr + FK_HALF, len, buf, len, want, ARRAY_SIZE(want));
}

/*
 * As fk_short_copy_halves_chunk(), but the source ends in inaccessible
 * pages: the halving retries store the 10 readable pages, and the write
 * then ends short when faulting in the rest fails.
 */
static void fk_short_copy_then_efault(struct kunit *test)
{
	static const struct fk_want want[] = {
		{ 0,		16 * FK_PG,	16,	10 * FK_PG },
		{ 0,		8 * FK_PG,	16,	8 * FK_PG },
		{ 8 * FK_PG,	8 * FK_PG,	16,	2 * FK_PG },
		{ 8 * FK_PG,	2 * FK_PG,	16,	2 * FK_PG },
		{ 10 * FK_PG,	2 * FK_PG,	16,	0 },
	};
	const size_t len = 16 * FK_PG, good = 10 * FK_PG;
	struct fk_ctx *ctx = fk_setup(test);
	u8 *buf = fk_pattern(test, good);
	unsigned long uaddr;

	uaddr = fk_mmap(test, 0, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS);
	fk_mmap(test, uaddr, good, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS);
	KUNIT_ASSERT_EQ(test, 0, copy_to_user((void __user *)uaddr, buf, good));
	fk_check_write(test, ctx, uaddr, len, buf, good, want, ARRAY_SIZE(want));
}

static struct kunit_case filemap_write_test_cases[] = {
	KUNIT_CASE(fk_short_copy_halves_chunk),
	KUNIT_CASE(fk_short_copy_halves_to_page),
	KUNIT_CASE(fk_short_copy_then_efault),
	{}
};

static struct kunit_suite filemap_write_test_suite = {
	.name = "filemap_write",
	.test_cases = filemap_write_test_cases,
};

kunit_test_suite(filemap_write_test_suite);
