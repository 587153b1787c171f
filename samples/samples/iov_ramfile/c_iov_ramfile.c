// SPDX-License-Identifier: GPL-2.0
/*
 * c_iov_ramfile - a fixed-capacity RAM file behind a misc device, served
 * through the C iov_iter API.
 *
 * /dev/c-iov-ramfile is the C twin of the Rust sample /dev/rust-iov-ramfile
 * and the reference for its behaviour: both must give identical results
 * (return values, errno, file contents, file offsets) for every request.
 * The tests samples/iov_ramfile/iov_ramfile*_test.c check that from user space.
 *
 * Semantics
 * ---------
 * State:
 *   - One file per device, shared by every open: @capacity bytes kept in
 *     kernel pages allocated (zeroed) at load time, and a size, initially 0.
 *     Every byte at or beyond the size reads as zero once the size grows
 *     over it.
 *   - Each open has its own file position (f_pos), starting at 0.
 *   - capacity is a module parameter in bytes (c_iov_ramfile.capacity=N on
 *     the kernel command line when built in), 1 <= N <= 256 MiB, default
 *     4 MiB; it does not have to be a multiple of the page size.
 *   - A single mutex per device serialises read, write, truncation and
 *     SEEK_END, so every request sees and leaves a consistent file: a read
 *     never observes part of a concurrent write. A request waiting for it
 *     fails with -EINTR on a fatal signal (it never returns to user space).
 *
 * open:
 *   - O_TRUNC together with write access (O_WRONLY or O_RDWR) resets the
 *     file: size 0, contents zero. O_TRUNC on a read-only open does nothing.
 *     This is how user space starts from an empty file.
 *   - The open sets FMODE_NOWAIT, so RWF_NOWAIT is accepted (see below).
 *     The VFS sets FMODE_LSEEK, FMODE_PREAD and FMODE_PWRITE before
 *     misc_open() calls us; we keep them (no nonseekable_open() or
 *     stream_open()), so pread, pwrite, preadv2 and pwritev2 work at any
 *     offset, and FMODE_LSEEK stays because there is an ->llseek.
 *
 * read_iter (read, readv, pread, preadv, preadv2):
 *   - A request for 0 bytes returns 0.
 *   - At or beyond the size (including beyond the capacity) it returns 0.
 *   - Otherwise it copies min(count, size - pos) bytes starting at pos,
 *     page by page with copy_page_to_iter(). If the user buffer faults
 *     after n > 0 bytes it returns n; if the very first byte faults it
 *     returns -EFAULT. The position advances by exactly what was returned.
 *
 * write_iter (write, writev, pwrite, pwritev, pwritev2):
 *   - A request for 0 bytes returns 0 and changes nothing (at any offset,
 *     also with IOCB_APPEND).
 *   - IOCB_APPEND (O_APPEND, RWF_APPEND) writes at the current size,
 *     whatever the offset asked for; afterwards the position is the new
 *     end of the written data.
 *   - A write starting at or beyond the capacity returns -ENOSPC and
 *     changes nothing. Checked before the user buffer is touched.
 *   - A write that crosses the capacity stores what fits and returns that
 *     short count; the next write there gets -ENOSPC.
 *   - The data is stored page by page, the 6.12 way: fault the source in
 *     (fault_in_iov_iter_readable()), then copy into the page with page
 *     faults disabled (copy_page_from_iter_atomic(), which advances the
 *     iterator by what it really copied). A short copy is retried from the
 *     fault-in; when nothing of the source can be faulted in the write
 *     stops there. It returns the bytes stored, or -EFAULT if none. No byte
 *     after the fault is written. Bytes written past the old size extend
 *     it; a write beyond the size leaves a zero-filled gap.
 *   - A fatal signal stops a write before its next page or retry (bytes
 *     stored so far, or -EINTR if none); only a task that is being killed
 *     can see it.
 *
 * Both directions:
 *   - Order: a request for 0 bytes returns 0 at once; any other first takes
 *     the device lock, then checks EOF (read) or IOCB_APPEND and the
 *     capacity (write), and only then touches the user buffer.
 *   - IOCB_NOWAIT (RWF_NOWAIT): the device lock is only tried; if another
 *     request holds it the call returns -EAGAIN and changes nothing.
 *     Otherwise the request runs as usual (the data is in RAM; faults on
 *     the user buffer are still taken).
 *   - Other kiocb flags (RWF_HIPRI, RWF_DSYNC, RWF_SYNC) change nothing.
 *   - ki_pos is updated only when the call returns a positive count.
 *   - The checks the VFS makes before calling the driver (negative or
 *     overflowing offsets: -EINVAL, bad iovecs: -EINVAL/-EFAULT, unknown
 *     RWF_* flags: -EOPNOTSUPP, ...) are the kernel's, not the driver's.
 *
 * llseek:
 *   - SEEK_SET, SEEK_CUR and SEEK_END (relative to the current size) give
 *     any offset in [0, LLONG_MAX], also beyond the size or the capacity.
 *   - A negative result or an overflow returns -EINVAL; SEEK_DATA,
 *     SEEK_HOLE and any other whence return -EINVAL. The position is then
 *     unchanged.
 *   - As for other character devices the VFS does not lock f_pos: threads
 *     sharing one open file and using read()/write() concurrently race on
 *     the position; use pread/pwrite or separate opens.
 *
 * splice (splice, sendfile, tee), io_uring and AIO:
 *   - splice_read is copy_splice_read(): read_iter with an ITER_BVEC
 *     iterator over pages it allocates, then handed to the pipe;
 *     splice_write is iter_file_splice_write(): write_iter with an
 *     ITER_BVEC iterator over the pipe's pages, called with the pipe
 *     locked. Same semantics as read and write (position, EOF, ENOSPC).
 *   - io_uring and AIO call read_iter/write_iter like preadv2/pwritev2;
 *     io_uring first tries with IOCB_NOWAIT (FMODE_NOWAIT is set) and,
 *     on -EAGAIN, retries from a worker without it.
 *
 * Locking: the device lock is held across the user copies. The kernel
 * itself never needs it to resolve a fault on the user buffer (no mmap),
 * so read_iter may copy with page faults enabled while holding it. A
 * buffer whose faults are served by user space (userfaultfd, FUSE) can
 * keep a request in the copy, and so the lock held, for as long as that
 * takes: every other request waits for the lock killably (mutex_lock_
 * killable(): -EINTR, or the task dies, on a fatal signal), and long reads
 * reschedule between pages. The lock nests inside a pipe's mutex
 * (splice_write) and is never held while waiting for a pipe. write_iter
 * still uses the fault-in + atomic-copy pattern: it is the one filesystems
 * need (a source mapped from the page being written), and this sample
 * shows it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uio.h>

#define RAMFILE_MAX_CAPACITY (256UL << 20)

static unsigned long capacity = SZ_4M;
module_param(capacity, ulong, 0444);
MODULE_PARM_DESC(capacity, "capacity of the file in bytes (1 .. 256 MiB, default 4 MiB)");

struct ramfile {
	struct miscdevice misc;
	/* Serialises every access to @size and to the pages' contents. */
	struct mutex lock;
	struct page **pages;
	unsigned long nr_pages;
	loff_t capacity;
	/* Bytes in use; every byte from @size up to @capacity is zero. */
	loff_t size;
};

static struct ramfile c_ramfile;

/*
 * The device lock is held across user copies, so a task can wait for it
 * behind a holder whose user buffer faults into userfaultfd or FUSE, for
 * as long as that takes: wait killably.
 */
static int ramfile_lock(struct ramfile *rf, const struct kiocb *iocb)
{
	if (iocb->ki_flags & IOCB_NOWAIT)
		return mutex_trylock(&rf->lock) ? 0 : -EAGAIN;
	return mutex_lock_killable(&rf->lock);
}

/* Zero what is in use, so the invariant on @size holds for size 0. */
static void ramfile_truncate(struct ramfile *rf)
{
	loff_t pos;

	lockdep_assert_held(&rf->lock);
	for (pos = 0; pos < rf->size; pos += PAGE_SIZE)
		memzero_page(rf->pages[pos >> PAGE_SHIFT], 0,
			     min_t(loff_t, PAGE_SIZE, rf->size - pos));
	rf->size = 0;
}

static int ramfile_open(struct inode *inode, struct file *file)
{
	/* misc_open() left our struct miscdevice in private_data. */
	struct ramfile *rf = container_of(file->private_data, struct ramfile, misc);

	file->private_data = rf;
	file->f_mode |= FMODE_NOWAIT;
	if ((file->f_flags & O_TRUNC) && (file->f_mode & FMODE_WRITE)) {
		if (mutex_lock_killable(&rf->lock))
			return -EINTR;
		ramfile_truncate(rf);
		mutex_unlock(&rf->lock);
	}
	return 0;
}

static ssize_t ramfile_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct ramfile *rf = iocb->ki_filp->private_data;
	loff_t pos = iocb->ki_pos;
	size_t done = 0;
	bool fault = false;
	int ret;

	if (!iov_iter_count(to))
		return 0;
	ret = ramfile_lock(rf, iocb);
	if (ret)
		return ret;

	/* @to is not empty: copy until it is full, at the size or at a fault. */
	while (pos < rf->size) {
		size_t offset = offset_in_page(pos);
		size_t want = min_t(size_t, PAGE_SIZE - offset, iov_iter_count(to));
		size_t copied;

		want = min_t(loff_t, want, rf->size - pos);

		copied = copy_page_to_iter(rf->pages[pos >> PAGE_SHIFT], offset,
					   want, to);
		done += copied;
		pos += copied;
		if (copied < want) {
			fault = true;
			break;
		}
		if (!iov_iter_count(to))
			break;
		/* Between pages: a read can ask for up to 2 GiB. */
		cond_resched();
	}
	mutex_unlock(&rf->lock);

	if (!done)
		return fault ? -EFAULT : 0;
	iocb->ki_pos = pos;
	return done;
}

static ssize_t ramfile_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct ramfile *rf = iocb->ki_filp->private_data;
	size_t done = 0;
	ssize_t err = 0;
	loff_t pos;
	int ret;

	if (!iov_iter_count(from))
		return 0;
	ret = ramfile_lock(rf, iocb);
	if (ret)
		return ret;

	pos = iocb->ki_flags & IOCB_APPEND ? rf->size : iocb->ki_pos;
	if (pos >= rf->capacity) {
		err = -ENOSPC;
		goto unlock;
	}

	/* Not empty and below the capacity: at least one copy. */
	for (;;) {
		size_t offset = offset_in_page(pos);
		size_t want = min_t(size_t, PAGE_SIZE - offset, iov_iter_count(from));
		size_t copied;

		want = min_t(loff_t, want, rf->capacity - pos);

		/*
		 * The copy below runs with page faults disabled, so bring the
		 * source in first; if none of it can be, the write ends here.
		 */
		if (fault_in_iov_iter_readable(from, want) == want) {
			err = -EFAULT;
			break;
		}
		copied = copy_page_from_iter_atomic(rf->pages[pos >> PAGE_SHIFT],
						    offset, want, from);
		/*
		 * A short copy means the source went away again, or only its
		 * first part could be faulted in: go round, fault in what is
		 * left and either copy it or stop at the fault.
		 */
		done += copied;
		pos += copied;
		if (!iov_iter_count(from) || pos >= rf->capacity)
			break;
		/*
		 * Before the next page or a retry: a write can be up to 2 GiB,
		 * so let a fatal signal end it and other tasks run.
		 */
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		cond_resched();
	}
	if (done && pos > rf->size)
		rf->size = pos;
unlock:
	mutex_unlock(&rf->lock);

	if (!done)
		return err;
	iocb->ki_pos = pos;
	return done;
}

static loff_t ramfile_llseek(struct file *file, loff_t offset, int whence)
{
	struct ramfile *rf = file->private_data;
	loff_t base, pos;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = file->f_pos;
		break;
	case SEEK_END:
		if (mutex_lock_killable(&rf->lock))
			return -EINTR;
		base = rf->size;
		mutex_unlock(&rf->lock);
		break;
	default:
		return -EINVAL;
	}
	if (check_add_overflow(base, offset, &pos) || pos < 0)
		return -EINVAL;
	return vfs_setpos(file, pos, MAX_LFS_FILESIZE);
}

static const struct file_operations ramfile_fops = {
	.owner = THIS_MODULE,
	.open = ramfile_open,
	.read_iter = ramfile_read_iter,
	.write_iter = ramfile_write_iter,
	/*
	 * splice() and sendfile() through read_iter and write_iter, with
	 * ITER_BVEC iterators over pipe or freshly allocated pages.
	 * iter_file_splice_write() calls write_iter with the pipe locked: the
	 * device lock nests inside the pipe's, and is never held while
	 * waiting for a pipe.
	 */
	.splice_read = copy_splice_read,
	.splice_write = iter_file_splice_write,
	.llseek = ramfile_llseek,
};

static void ramfile_free_pages(struct ramfile *rf)
{
	unsigned long i;

	for (i = 0; i < rf->nr_pages; i++)
		if (rf->pages[i])
			__free_page(rf->pages[i]);
	kvfree(rf->pages);
}

static int __init c_iov_ramfile_init(void)
{
	struct ramfile *rf = &c_ramfile;
	unsigned long i;
	int ret;

	if (!capacity || capacity > RAMFILE_MAX_CAPACITY) {
		pr_err("capacity %lu out of range (1 .. %lu)\n", capacity,
		       RAMFILE_MAX_CAPACITY);
		return -EINVAL;
	}
	rf->capacity = capacity;
	rf->nr_pages = DIV_ROUND_UP(capacity, PAGE_SIZE);
	rf->pages = kvcalloc(rf->nr_pages, sizeof(*rf->pages), GFP_KERNEL);
	if (!rf->pages)
		return -ENOMEM;
	for (i = 0; i < rf->nr_pages; i++) {
		rf->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!rf->pages[i]) {
			ret = -ENOMEM;
			goto free;
		}
	}
	mutex_init(&rf->lock);

	rf->misc.minor = MISC_DYNAMIC_MINOR;
	rf->misc.name = "c-iov-ramfile";
	rf->misc.fops = &ramfile_fops;
	ret = misc_register(&rf->misc);
	if (ret)
		goto free;
	pr_info("/dev/%s: %lu bytes\n", rf->misc.name, capacity);
	return 0;

free:
	ramfile_free_pages(rf);
	return ret;
}

static void __exit c_iov_ramfile_exit(void)
{
	misc_deregister(&c_ramfile.misc);
	ramfile_free_pages(&c_ramfile);
}

module_init(c_iov_ramfile_init);
module_exit(c_iov_ramfile_exit);

MODULE_DESCRIPTION("RAM file misc device served through the C iov_iter API");
MODULE_LICENSE("GPL");
