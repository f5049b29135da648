package dev.hangar.mmap.nativeio;

import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code mlock}, {@code munlock} and {@code madvise} on direct buffers, as optimisations only: when a call
 * fails (no {@code CAP_IPC_LOCK}, {@code RLIMIT_MEMLOCK} too small, not Linux, JNA or libc missing) it returns
 * false, logs ONE warning per kind of call with the reason, and the caller carries on. Nothing here throws for a
 * native failure.
 *
 * <p>Thread-safe.
 */
public final class NativeMemory {
    private static final Logger LOG = LoggerFactory.getLogger(NativeMemory.class);
    private static volatile NativeMemory system;
    private final java.util.concurrent.atomic.AtomicBoolean preallocateWarned = new java.util.concurrent.atomic.AtomicBoolean();

    /** The calls, for one warning per kind. */
    enum Call { MLOCK, MUNLOCK, MADVISE, FADVISE }

    private final LibC libc;
    private final String unavailableReason;
    private final Set<Call> warned = EnumSet.noneOf(Call.class);
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicInteger warnings = new AtomicInteger();
    private volatile String lastFailure = "";

    /** Uses {@code libc} for every call; {@code libc == null} means unavailable for {@code unavailableReason}. */
    public NativeMemory(LibC libc, String unavailableReason) {
        this.libc = libc;
        this.unavailableReason = unavailableReason;
    }

    /** The process-wide instance over the C library, loaded on first use. */
    public static NativeMemory system() {
        NativeMemory instance = system;
        if (instance == null) {
            synchronized (NativeMemory.class) {
                instance = system;
                if (instance == null) {
                    instance = load();
                    system = instance;
                }
            }
        }
        return instance;
    }

    /** A fresh instance over the C library (or an unavailable one when it cannot be loaded). */
    public static NativeMemory load() {
        try {
            return new NativeMemory(Native.load("c", LibC.class), null);
        } catch (LinkageError | RuntimeException e) {
            return new NativeMemory(null, "the C library could not be loaded through JNA (" + e + ") on "
                    + System.getProperty("os.name"));
        }
    }

    public boolean isAvailable() {
        return libc != null;
    }

    /** Why native calls are unavailable, or null when they are available. */
    public String unavailableReason() {
        return libc == null ? unavailableReason : null;
    }

    /**
     * The virtual address of {@code buffer}'s first byte, or -1 when it cannot be known (no native calls, or not a
     * direct buffer). For alignment checks: no memory is touched through it.
     */
    public long address(ByteBuffer buffer) {
        if (libc == null || buffer == null || !buffer.isDirect()) {
            return -1;
        }
        try {
            return Pointer.nativeValue(Native.getDirectBufferPointer(buffer));
        } catch (LinkageError | RuntimeException e) {
            return -1;
        }
    }

    /** Locks the first {@code length} bytes of {@code buffer} in RAM. False (logged once) when that failed. */
    public boolean mlock(ByteBuffer buffer, long length) {
        return call(Call.MLOCK, buffer, length, 0);
    }

    /** Unlocks the first {@code length} bytes of {@code buffer}. False (logged once) when that failed. */
    public boolean munlock(ByteBuffer buffer, long length) {
        return call(Call.MUNLOCK, buffer, length, 0);
    }

    /** Gives the kernel {@code advice} ({@link LibC#MADV_WILLNEED}, ...) about the first {@code length} bytes. */
    public boolean madvise(ByteBuffer buffer, long length, int advice) {
        return call(Call.MADVISE, buffer, length, advice);
    }

    /** The page size {@link #residentPages} counts in (this project's mappings assume 4 KiB pages). */
    private static final int PAGE_SIZE = 4096;

    /**
     * How many pages of {@code [offset, offset + length)} of {@code buffer} are in the page cache ({@code mincore};
     * {@code offset} page aligned); -1 when that cannot be asked. A diagnostic for tests and tools: no store
     * decision depends on it.
     */
    public long residentPages(ByteBuffer buffer, long offset, long length) {
        if (libc == null || buffer == null || !buffer.isDirect() || offset < 0 || length < 0
                || offset + length > buffer.capacity() || offset % PAGE_SIZE != 0) {
            return -1;
        }
        try {
            byte[] vector = new byte[(int) ((length + PAGE_SIZE - 1) / PAGE_SIZE)];
            Pointer address = Native.getDirectBufferPointer(buffer).share(offset);
            if (libc.mincore(address, new NativeLong(length), vector) != 0) {
                return -1;
            }
            long resident = 0;
            for (byte b : vector) {
                resident += b & 1;
            }
            return resident;
        } catch (LinkageError | RuntimeException e) {
            return -1;
        }
    }

    /** Native calls that failed so far. */
    public int failures() {
        return failures.get();
    }

    /** Warnings logged so far: at most one per kind of call. */
    public int warningsLogged() {
        return warnings.get();
    }

    /** The reason of the most recent failure, or empty. */
    public String lastFailure() {
        return lastFailure;
    }

    private boolean call(Call call, ByteBuffer buffer, long length, int advice) {
        if (buffer == null || !buffer.isDirect()) {
            throw new IllegalArgumentException(call + " needs a direct or mapped buffer");
        }
        if (length < 0 || length > buffer.capacity()) {
            throw new IllegalArgumentException(call + " length " + length + " outside the buffer's "
                    + buffer.capacity() + " bytes");
        }
        if (libc == null) {
            return failed(call, length, unavailableReason);
        }
        try {
            Pointer address = Native.getDirectBufferPointer(buffer);
            NativeLong size = new NativeLong(length);
            int rc = switch (call) {
                case MLOCK -> libc.mlock(address, size);
                case MUNLOCK -> libc.munlock(address, size);
                case MADVISE -> libc.madvise(address, size, advice);
                case FADVISE -> throw new IllegalArgumentException("posix_fadvise takes a file, not a buffer");
            };
            if (rc == 0) {
                return true;
            }
            return failed(call, length, Errno.describe(Native.getLastError(), call == Call.MLOCK));
        } catch (LinkageError | RuntimeException e) {
            return failed(call, length, e.toString());
        }
    }

    /**
     * Opens {@code directory} read-only for {@link #syncFileSystem}: the handle remembers which write-back errors
     * its file system had already seen, so open it before the writes it is to vouch for. Returns -1 when native
     * calls are unavailable or the open failed (callers then force file by file).
     */
    public int openFileSystemHandle(Path directory) {
        if (libc == null) {
            return -1;
        }
        try {
            int fd = libc.open(directory.toString(), LibC.O_RDONLY);
            if (fd < 0) {
                LOG.warn("cannot open {} for syncfs ({}): forcing file by file", directory,
                        Errno.describe(Native.getLastError(), false));
            }
            return fd;
        } catch (LinkageError | RuntimeException e) {
            LOG.warn("cannot open {} for syncfs ({}): forcing file by file", directory, e.toString());
            return -1;
        }
    }

    /**
     * {@code syncfs(2)} on a handle from {@link #openFileSystemHandle}: every page written to that file system before
     * this call is on the disk when it returns normally.
     *
     * @return false when this C library has no {@code syncfs} (nothing was synced: force file by file)
     * @throws IOException the call failed, or a write-back error hit the file system since the handle was opened
     */
    public boolean syncFileSystem(int fd, Path what) throws IOException {
        int rc;
        try {
            rc = libc.syncfs(fd);
        } catch (LinkageError e) {
            LOG.warn("no syncfs in this C library ({}): ConsumeQueue files are forced one by one", e.toString());
            return false;
        } catch (RuntimeException e) {
            throw new IOException("syncfs of the file system of " + what + " failed: " + e, e);
        }
        if (rc != 0) {
            throw new IOException("syncfs of the file system of " + what + " failed: "
                    + Errno.describe(Native.getLastError(), false));
        }
        return true;
    }

    /**
     * Drops the clean pages of {@code [offset, offset + length)} of {@code file} from the page cache
     * ({@code posix_fadvise(POSIX_FADV_DONTNEED)}; pages still dirty or mapped by a page table are left). The data
     * stays in the file; a later read brings it back from the disk. False (logged once) when that could not be done.
     */
    public boolean dropFromPageCache(Path file, long offset, long length) {
        if (libc == null) {
            return failed(Call.FADVISE, length, unavailableReason);
        }
        try {
            int fd = libc.open(file.toString(), LibC.O_RDONLY);
            if (fd < 0) {
                return failed(Call.FADVISE, length, Errno.describe(Native.getLastError(), false));
            }
            try {
                int rc = libc.posix_fadvise(fd, offset, length, LibC.POSIX_FADV_DONTNEED);
                return rc == 0 || failed(Call.FADVISE, length, Errno.describe(rc, false));
            } finally {
                libc.close(fd);
            }
        } catch (LinkageError | RuntimeException e) {
            return failed(Call.FADVISE, length, e.toString());
        }
    }

    /** Closes a handle from {@link #openFileSystemHandle}. */
    public void closeFileSystemHandle(int fd) {
        if (libc != null && fd >= 0) {
            try {
                libc.close(fd);
            } catch (LinkageError | RuntimeException e) {
                LOG.debug("closing syncfs handle {} failed: {}", fd, e.toString());
            }
        }
    }

    /** Errors of {@code posix_fallocate} that mean the disk (or quota) is full. */
    private static final int ENOSPC = 28;
    private static final int EFBIG = 27;
    private static final int EDQUOT = 122;

    /**
     * Reserves the disk blocks of a new file so that a full disk fails here, with an IOException, instead of
     * as a SIGBUS on the first write into a hole of the mapping. Other failures (no JNA, a file system
     * without fallocate) only warn once: the file stays sparse, as RocketMQ's are.
     *
     * @throws IOException the disk has no room for the file
     */
    public void preallocate(java.nio.file.Path path, long length) throws IOException {
        if (libc == null) {
            preallocateFailed(length, unavailableReason);
            return;
        }
        int fd;
        try {
            fd = libc.open(path.toString(), LibC.O_RDWR);
        } catch (LinkageError | RuntimeException e) {
            preallocateFailed(length, e.toString());
            return;
        }
        if (fd < 0) {
            preallocateFailed(length, Errno.describe(Native.getLastError(), false));
            return;
        }
        try {
            int rc = libc.posix_fallocate(fd, 0, length);
            if (rc == ENOSPC || rc == EFBIG || rc == EDQUOT) {
                throw new IOException("No space left on device: cannot reserve " + length + " bytes for " + path
                        + " (" + Errno.describe(rc, false) + ")");
            }
            if (rc != 0) {
                preallocateFailed(length, Errno.describe(rc, false));
            }
        } catch (LinkageError | RuntimeException e) {
            preallocateFailed(length, e.toString());
        } finally {
            libc.close(fd);
        }
    }

    private void preallocateFailed(long length, String reason) {
        failures.incrementAndGet();
        lastFailure = "posix_fallocate: " + reason;
        if (preallocateWarned.compareAndSet(false, true)) {
            warnings.incrementAndGet();
            LOG.warn("reserving {} bytes of disk for a new mapped file failed: {}. Files stay sparse: a full disk "
                    + "may then surface as a fault on write", length, reason);
        }
    }

    private boolean failed(Call call, long length, String reason) {
        failures.incrementAndGet();
        lastFailure = call.name().toLowerCase(java.util.Locale.ROOT) + ": " + reason;
        boolean first;
        synchronized (warned) {
            first = warned.add(call);
        }
        if (first) {
            warnings.incrementAndGet();
            LOG.warn("{} of {} bytes failed: {}; {}. Carrying on without it (it is an optimisation); further {} "
                    + "failures are not logged", call.name().toLowerCase(java.util.Locale.ROOT), length, reason,
                    memlockLimit(), call.name().toLowerCase(java.util.Locale.ROOT));
        }
        return false;
    }

    /** The process's locked-memory limit as Linux reports it, for the warning. */
    static String memlockLimit() {
        Path limits = Path.of("/proc/self/limits");
        try {
            if (Files.isReadable(limits)) {
                for (String line : Files.readAllLines(limits)) {
                    if (line.startsWith("Max locked memory")) {
                        String[] fields = line.substring("Max locked memory".length()).trim().split("\\s+");
                        return fields.length >= 2 ? "RLIMIT_MEMLOCK soft " + fields[0] + ", hard " + fields[1]
                                + (fields.length > 2 ? " " + fields[2] : "") : "RLIMIT_MEMLOCK " + fields[0];
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // only decoration for the warning
        }
        return "RLIMIT_MEMLOCK unknown";
    }
}
