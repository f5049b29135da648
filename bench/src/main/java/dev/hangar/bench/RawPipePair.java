package dev.hangar.bench;

import dev.hangar.mmap.file.MappedBufferCleaner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * The replication floor of this machine: the least work that moves a put's bytes from a master's page cache to a
 * slave's, with the same thread hand-offs as a store pair and nothing else. Not a store: no record format, no
 * ConsumeQueue, index or dispatch, no flush, no checksums, no protocol headers or reports.
 * <ul>
 *   <li>Put threads copy the 1 KiB body into a mapped file (256 MiB files, new ones as they fill, as the engines'
 *       CommitLogs) under one lock and wake the sender if it sleeps.</li>
 *   <li>A sender thread writes what is new, straight from the mapping, to a loopback socket (blocking), up to
 *       256 KiB per write, and parks when it has caught up.</li>
 *   <li>A receiver thread reads the socket into a direct buffer and {@code pwrite}s it into the slave's files; the
 *       slave's end is what it has written. A SYNC_MASTER put completes once the receiver wrote past it (told in
 *       this process, so cheaper than any acknowledgement over the socket).</li>
 *   <li>A flusher thread forces what each side wrote every {@value #FLUSH_INTERVAL_MILLIS} ms, as the stores'
 *       default asynchronous flush does ({@code flushIntervalCommitLog}): without it the dirty pages pile up until
 *       the kernel's own writeback throttles the writers, a stall no store with a flush meets.</li>
 * </ul>
 * A store pair does all of this and more, so its replication lag at a rate cannot be expected below this pair's at
 * the same rate on the same machine: a target this floor misses is out of reach of any engine here.
 */
final class RawPipePair implements HaPair {
    static final String NAME = "raw-pipe";
    private static final int CHUNK = 256 * 1024;
    static final long FLUSH_INTERVAL_MILLIS = 500;

    private final int fileSize;
    private final byte[] body;
    private final boolean sync;
    private final Path masterDir;
    private final Path slaveDir;
    private final List<MappedByteBuffer> masterFiles = new ArrayList<>();
    private final List<FileChannel> openChannels = new ArrayList<>();
    private final Object putLock = new Object();
    /** Bytes put (guarded by putLock for writers; volatile for the sender). */
    private volatile long masterEnd;
    private volatile long slaveEnd;
    private volatile boolean senderSleeping;
    private volatile boolean stopped;
    /** SYNC_MASTER puts waiting for the receiver, in offset order (guarded by itself). */
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private final ServerSocketChannel server;
    private final SocketChannel sending;
    private final SocketChannel receiving;
    private final Thread sender;
    private final Thread receiver;
    private final Thread flusher;
    /** The slave's files, in offset order (appended by the receiver, read by the flusher). */
    private final List<FileChannel> slaveFiles = new java.util.concurrent.CopyOnWriteArrayList<>();

    private record Waiting(long end, CompletableFuture<Long> future) {
    }

    RawPipePair(Path dir, String role, int fileSize, int messageSize) throws IOException {
        this.fileSize = fileSize;
        this.body = Bodies.of(messageSize, 0);
        this.sync = role.equals("SYNC_MASTER");
        this.masterDir = Files.createDirectories(dir.resolve("master"));
        this.slaveDir = Files.createDirectories(dir.resolve("slave"));
        this.server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.sending = SocketChannel.open(server.getLocalAddress());
        this.receiving = server.accept();
        sending.socket().setTcpNoDelay(true);
        masterFiles.add(map(masterDir, 0));
        this.sender = new Thread(this::send, "raw-pipe-sender");
        this.receiver = new Thread(this::receive, "raw-pipe-receiver");
        this.flusher = new Thread(this::flush, "raw-pipe-flusher");
        sender.setDaemon(true);
        receiver.setDaemon(true);
        flusher.setDaemon(true);
        sender.start();
        receiver.start();
        flusher.start();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public CompletableFuture<Long> put(int n) {
        long end;
        CompletableFuture<Long> answer = null;
        synchronized (putLock) {
            long at = masterEnd;
            int inFile = (int) (at % fileSize);
            if (inFile + body.length > fileSize) {
                at += fileSize - inFile; // the rest of the file stays unused, as a store's end-of-file blank
                inFile = 0;
            }
            int file = (int) (at / fileSize);
            if (file == masterFiles.size()) {
                masterFiles.add(map(masterDir, (long) file * fileSize));
            }
            masterFiles.get(file).put(inFile, body);
            end = at + body.length;
            if (sync) {
                answer = new CompletableFuture<>();
                synchronized (waiting) {
                    waiting.add(new Waiting(end, answer));
                }
            }
            masterEnd = end;
        }
        if (senderSleeping) {
            senderSleeping = false;
            LockSupport.unpark(sender);
        }
        return sync ? answer : CompletableFuture.completedFuture(end);
    }

    @Override
    public long slaveMaxOffset() {
        return slaveEnd;
    }

    private void send() {
        long shipped = 0;
        try {
            while (!stopped) {
                long end = masterEnd;
                if (end <= shipped) {
                    senderSleeping = true;
                    if (masterEnd <= shipped && !stopped) {
                        LockSupport.parkNanos(1_000_000);
                    }
                    senderSleeping = false;
                    continue;
                }
                int file = (int) (shipped / fileSize);
                int inFile = (int) (shipped % fileSize);
                int n = (int) Math.min(Math.min(end - shipped, CHUNK), fileSize - inFile);
                MappedByteBuffer mapping;
                synchronized (putLock) {
                    mapping = masterFiles.get(file);
                }
                ByteBuffer view = mapping.slice(inFile, n);
                while (view.hasRemaining()) {
                    sending.write(view);
                }
                shipped += n;
            }
        } catch (IOException e) {
            if (!stopped) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void receive() {
        ByteBuffer input = ByteBuffer.allocateDirect(CHUNK);
        List<FileChannel> files = slaveFiles;
        long written = 0;
        try {
            while (!stopped) {
                input.clear();
                int n = receiving.read(input);
                if (n < 0) {
                    return;
                }
                input.flip();
                while (input.hasRemaining()) {
                    int file = (int) (written / fileSize);
                    if (file == files.size()) {
                        files.add(open(slaveDir, (long) file * fileSize));
                    }
                    int room = (int) (fileSize - written % fileSize);
                    ByteBuffer part = input.slice(input.position(), Math.min(room, input.remaining()));
                    written += files.get(file).write(part, written % fileSize);
                    input.position(input.position() + part.position());
                }
                slaveEnd = written;
                if (sync) {
                    completeThrough(written);
                }
            }
        } catch (IOException e) {
            if (!stopped) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Forces both sides' new bytes every {@link #FLUSH_INTERVAL_MILLIS}: master by range, slave by file. */
    private void flush() {
        long masterFlushed = 0;
        int slaveFlushedFiles = 0;
        try {
            while (!stopped) {
                LockSupport.parkNanos(FLUSH_INTERVAL_MILLIS * 1_000_000);
                long end = masterEnd;
                while (masterFlushed < end && !stopped) {
                    int file = (int) (masterFlushed / fileSize);
                    int from = (int) (masterFlushed % fileSize);
                    int to = (int) Math.min(fileSize, end - (long) file * fileSize);
                    MappedByteBuffer mapping;
                    synchronized (putLock) {
                        mapping = masterFiles.get(file);
                    }
                    mapping.force(from, to - from);
                    masterFlushed = (long) file * fileSize + to;
                }
                // the slave's files: the newest, and any that filled since the last round
                int newest = slaveFiles.size() - 1;
                for (int f = Math.max(0, slaveFlushedFiles); f <= newest && !stopped; f++) {
                    slaveFiles.get(f).force(false);
                }
                slaveFlushedFiles = Math.max(0, newest);
            }
        } catch (IOException | IndexOutOfBoundsException e) {
            if (!stopped) {
                throw new IllegalStateException("raw-pipe flush failed", e);
            }
        }
    }

    private void completeThrough(long written) {
        while (true) {
            Waiting w;
            synchronized (waiting) {
                w = waiting.peek();
                if (w == null || w.end() > written) {
                    return;
                }
                waiting.poll();
            }
            w.future().complete(w.end());
        }
    }

    private MappedByteBuffer map(Path dir, long offset) {
        try {
            FileChannel ch = open(dir, offset);
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, fileSize);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private FileChannel open(Path dir, long offset) throws IOException {
        FileChannel ch = FileChannel.open(dir.resolve(String.format("%020d", offset)), StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE);
        ch.truncate(fileSize);
        ch.write(ByteBuffer.allocate(1), fileSize - 1); // the file's full length, sparse, as a store's new file
        synchronized (openChannels) {
            openChannels.add(ch);
        }
        return ch;
    }

    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(sender);
        try {
            sending.close();
            receiving.close();
            server.close();
            LockSupport.unpark(flusher);
            sender.join(5_000);
            receiver.join(5_000);
            flusher.join(5_000);
            synchronized (openChannels) {
                for (FileChannel ch : openChannels) {
                    ch.close();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (putLock) {
            // unmapped now, so the deleted files' pages go back before the next row (as the stores unmap theirs)
            masterFiles.forEach(MappedBufferCleaner::clean);
            masterFiles.clear();
        }
    }
}
