package dev.hangar.ha;

import dev.hangar.spi.ha.ReplicatedLog;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slave's connection to its master, on one thread: reports its end offset on connect, after each append (once
 * the frames already received are applied, at most {@link #MAX_UNREPORTED_BYTES} later) and every
 * {@code haSendHeartbeatInterval}; appends each frame's bytes at the frame's offset, which must be where this
 * log ends (or a file boundary, for an empty log: a RocketMQ master starts a fresh slave at its newest file).
 * Reconnects with back-off when the master goes away or stays silent for {@code haHousekeepingInterval}.
 *
 * <p>It never rewrites its log: when the master's offsets do not continue it (this slave holds bytes the master
 * does not, or the master no longer has the bytes this slave lacks), it stops replicating for good and says why,
 * with both offsets, in the log and in {@link #problem()}.
 */
final class HaClient {
    private static final Logger LOG = LoggerFactory.getLogger(HaClient.class);
    private static final int CONNECT_TIMEOUT_MILLIS = 3_000;
    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 5_000;
    private static final int POLL_MILLIS = 100;
    /**
     * Reads from the socket land here: frames' headers and bodies, often several frames, in one system call. Larger
     * than a frame (haTransferBatchSize, 32 KiB by default) so a burst is taken in few reads.
     */
    private static final int READ_BUFFER_BYTES = 256 * 1024;
    /**
     * While more frames are already waiting in the socket, the report waits for them (one report, one wake-up of
     * the master, instead of one per frame), but never for more than this many bytes, so a SYNC_MASTER under a
     * continuous stream still hears acknowledgements at once.
     */
    static final int MAX_UNREPORTED_BYTES = 256 * 1024;
    /** An append slower than this is logged: the slave's mapped file stalled (first-touch faults, writeback). */
    static final long SLOW_APPEND_NANOS = 50_000_000;

    private final HaSettings settings;
    private final ReplicatedLog log;
    private final Thread thread;
    private final RateMeter received = new RateMeter();
    private final AtomicLong rejectedFrames = new AtomicLong();
    private final int maxBody;
    /** Socket bytes land here; direct, so a read is one copy (kernel to this buffer) and so is the append. */
    private final ByteBuffer input = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    /**
     * The bodies of the consecutive frames one read brought, gathered into one append: one lock, one write and one
     * wake-up of the dispatcher and the flusher for them all, instead of one each per frame (a master under a paced
     * load ships many small frames, and a slave that fell behind reads them several at a time).
     */
    private final ByteBuffer staged = ByteBuffer.allocateDirect(READ_BUFFER_BYTES);
    private long stagedOffset;
    private final ByteBuffer pendingReport = ByteBuffer.allocate(HaFrameFormat.REPORT_SIZE);
    private long pendingOffset;
    private volatile boolean stopped;
    private volatile String problem = "not connected yet";
    private volatile SocketChannel channel;
    private volatile Selector selector;
    private volatile long lastFrameNanos = System.nanoTime();
    /**
     * Socket reads that returned nothing right after a read that returned bytes, with no sleep between: a wasted
     * system call (a test counts them: a wake-up for one frame should not cost one).
     */
    private volatile long emptyReadsAfterData;

    HaClient(HaSettings settings, ReplicatedLog log) {
        this.settings = settings;
        this.log = log;
        this.maxBody = Math.max(log.fileSize(), settings.transferBatchSize());
        this.thread = new Thread(this::run, "hangar-ha-client");
        this.thread.setDaemon(true);
    }

    void start() {
        settings.master(); // a malformed address fails the start, not the thread
        thread.start();
    }

    String problem() {
        return problem;
    }

    /** A slave cannot know the master's end: the master reports the lag in bytes. */
    long lagBytes() {
        return -1;
    }

    /** Millis since the last frame (data or heartbeat) from the master. */
    long lagMillis() {
        return (System.nanoTime() - lastFrameNanos) / 1_000_000;
    }

    long bytesPerSecond() {
        return received.bytesPerSecond();
    }

    long emptyReadsAfterData() {
        return emptyReadsAfterData;
    }

    long rejectedFrames() {
        return rejectedFrames.get();
    }

    private void run() {
        long backoff = FIRST_BACKOFF_MILLIS;
        while (!stopped) {
            InetSocketAddress master = settings.master();
            try (SocketChannel c = SocketChannel.open(); Selector selector = Selector.open()) {
                channel = c;
                c.socket().connect(new InetSocketAddress(master.getHostString(), master.getPort()),
                        CONNECT_TIMEOUT_MILLIS);
                c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                c.configureBlocking(false);
                c.register(selector, SelectionKey.OP_READ);
                this.selector = selector;
                problem = "";
                LOG.info("connected to master {}; this log ends at {}", settings.masterAddress(), log.maxOffset());
                backoff = FIRST_BACKOFF_MILLIS;
                String why = session(c, selector);
                if (why != null && !stopped) {
                    problem = why;
                    LOG.warn("replication from {}: {}", settings.masterAddress(), why);
                }
            } catch (IOException e) {
                if (!stopped) {
                    problem = "cannot reach master " + settings.masterAddress() + ": " + e.getMessage();
                    LOG.debug(problem);
                }
            } catch (Diverged d) {
                problem = "replication stopped: " + d.getMessage();
                LOG.error("replication from {} stopped for good: {}; this slave's log is left as it is",
                        settings.masterAddress(), d.getMessage());
                return;
            } finally {
                channel = null;
                selector = null;
            }
            if (!stopped) {
                LockSupport.parkNanos(backoff * 1_000_000);
                backoff = Math.min(MAX_BACKOFF_MILLIS, backoff * 2);
            }
        }
    }

    /** The master's offsets do not continue this log. */
    private static final class Diverged extends RuntimeException {
        Diverged(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Runs one connection; returns why it ended (null on shutdown). Reads whatever the socket holds into one direct
     * buffer (one system call for several frames, no copy into the Java heap) and appends the bodies of the frames it
     * holds together ({@link #staged}), a part at a time when a body is still arriving: a frame may end anywhere, so
     * may an append.
     */
    private String session(SocketChannel c, Selector selector) throws IOException {
        ByteBuffer in = input;
        in.clear();
        staged.clear();
        pendingReport.clear().limit(0);
        long reported = report(c, log.maxOffset());
        long lastReportNanos = System.nanoTime();
        long lastHeardNanos = System.nanoTime();
        long bodyOffset = -1;
        int bodyLeft = -1; // -1: a header comes next
        boolean readBytesLastTime = false; // and did not sleep since
        while (!stopped) {
            long now = System.nanoTime();
            if (now - lastReportNanos >= settings.heartbeatMillis() * 1_000_000) {
                reported = report(c, log.maxOffset());
                lastReportNanos = now;
            }
            if (now - lastHeardNanos > settings.housekeepingMillis() * 1_000_000) {
                return "nothing from the master for over " + settings.housekeepingMillis() + " ms; reconnecting";
            }
            int n = c.read(in);
            if (n < 0) {
                return "the master closed the connection";
            }
            boolean drained;
            if (n == 0) {
                if (readBytesLastTime) {
                    emptyReadsAfterData++;
                }
                readBytesLastTime = false;
                drained = true;
            } else {
                // a read that left room in the buffer took all the socket held: reading again would return 0 (one
                // wasted system call per wake-up); the select below returns at once if more came meanwhile
                drained = in.hasRemaining();
                readBytesLastTime = !drained;
                lastHeardNanos = System.nanoTime();
                in.flip();
                while (true) {
                    if (bodyLeft < 0) {
                        if (in.remaining() < HaFrameFormat.HEADER_SIZE) {
                            break;
                        }
                        long offset = in.getLong(in.position() + HaFrameFormat.PHY_OFFSET_AT);
                        int size = in.getInt(in.position() + HaFrameFormat.BODY_SIZE_AT);
                        in.position(in.position() + HaFrameFormat.HEADER_SIZE);
                        if (size < 0 || size > maxBody) {
                            appendStaged(); // the frames before it were good
                            rejectedFrames.incrementAndGet();
                            return "the master sent a frame of " + size + " bytes (allowed 0.." + maxBody
                                    + "); reconnecting";
                        }
                        if (staged.position() == 0 || offset != stagedOffset + staged.position()) {
                            appendStaged();
                            checkContinues(offset);
                        }
                        bodyOffset = offset;
                        bodyLeft = size;
                    } else {
                        int part = Math.min(bodyLeft, in.remaining());
                        if (part == 0) {
                            break;
                        }
                        stage(bodyOffset, in.slice(in.position(), part));
                        in.position(in.position() + part);
                        bodyOffset += part;
                        bodyLeft -= part;
                    }
                    if (bodyLeft == 0) {
                        lastFrameNanos = System.nanoTime();
                        bodyLeft = -1;
                    }
                }
                appendStaged();
                in.compact();
            }
            long end = log.maxOffset();
            if (drained) {
                // nothing more waiting: acknowledge what is applied (one report for all the frames just read), then
                // sleep until bytes arrive or the poll interval ends
                if (end > reported) {
                    reported = report(c, end);
                    lastReportNanos = System.nanoTime();
                }
                selector.select(POLL_MILLIS);
                selector.selectedKeys().clear();
            } else if (end - reported >= MAX_UNREPORTED_BYTES) {
                reported = report(c, end);
                lastReportNanos = System.nanoTime();
            }
        }
        return null;
    }

    /** Checks a frame's offset against this log's end. */
    private void checkContinues(long masterOffset) {
        long mine = log.maxOffset();
        boolean empty = log.minOffset() < 0;
        if (empty && mine == 0) {
            if (masterOffset % log.fileSize() != 0) {
                throw new Diverged("the master starts this empty slave at offset " + masterOffset
                        + ", which is not a file boundary (file size " + log.fileSize() + ")");
            }
        } else if (masterOffset < mine) {
            throw new Diverged("this slave holds bytes past the master's end: it ends at " + mine
                    + ", the master continues from " + masterOffset + " (an old master after a failover?)");
        } else if (masterOffset > mine) {
            throw new Diverged("the master sends from offset " + masterOffset + " but this slave ends at " + mine
                    + ": the bytes in between are no longer on the master");
        }
    }

    /** Adds (part of) a frame's body, which continues the staged bytes (or starts them), to the next append. */
    private void stage(long masterOffset, ByteBuffer bytes) {
        if (staged.position() > 0 && (staged.remaining() < bytes.remaining()
                || masterOffset != stagedOffset + staged.position())) {
            appendStaged();
        }
        if (staged.position() == 0) {
            stagedOffset = masterOffset;
        }
        staged.put(bytes);
    }

    /** Appends the staged bodies, if any, at the offset where the first of them starts. */
    private void appendStaged() {
        if (staged.position() > 0) {
            staged.flip();
            try {
                append(stagedOffset, staged);
            } finally {
                staged.clear();
            }
        }
    }

    /** Appends (part of) a frame's body at {@code masterOffset}, where this log ends. */
    private void append(long masterOffset, ByteBuffer bytes) {
        int size = bytes.remaining();
        long begin = System.nanoTime();
        try {
            log.appendAt(masterOffset, bytes);
        } catch (IllegalStateException e) {
            throw new Diverged(e.getMessage());
        }
        long took = System.nanoTime() - begin;
        if (took > SLOW_APPEND_NANOS) {
            // every replicated byte waits behind this: it is the slave-side share of a replication lag spike
            LOG.warn("appending {} replicated bytes at offset {} took {} ms (page faults or writeback stalling "
                    + "this slave's CommitLog?)", size, masterOffset, took / 1_000_000);
        }
        received.add(size);
    }

    /**
     * Sends {@code offset} as a report, unless the previous report is still not wholly in the socket (a master that
     * reads nothing for that long): then it finishes that one and skips this; a later report carries a newer offset.
     * Returns the offset the master has now been told (or will be, once the socket takes the rest).
     */
    private long report(SocketChannel c, long offset) throws IOException {
        if (pendingReport.hasRemaining()) {
            c.write(pendingReport);
            return pendingOffset;
        }
        pendingReport.clear().putLong(0, offset);
        pendingOffset = offset;
        c.write(pendingReport);
        return offset;
    }

    void shutdown() {
        stopped = true;
        SocketChannel c = channel;
        if (c != null) {
            try {
                c.close();
            } catch (IOException e) {
                LOG.debug("closing the master connection: {}", e.toString());
            }
        }
        Selector s = selector;
        if (s != null) {
            s.wakeup();
        }
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
