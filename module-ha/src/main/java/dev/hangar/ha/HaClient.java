package dev.hangar.ha;

import dev.hangar.spi.ha.ReplicatedLog;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
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
    /** Reads from the socket land here: a frame's header and body, often several frames, in one system call. */
    private static final int READ_BUFFER_BYTES = 64 * 1024;
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
    private final byte[] header = new byte[HaFrameFormat.HEADER_SIZE];
    private final int maxBody;
    private byte[] body = new byte[0];
    private volatile boolean stopped;
    private volatile String problem = "not connected yet";
    private volatile Socket socket;
    private volatile long lastFrameNanos = System.nanoTime();

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

    long rejectedFrames() {
        return rejectedFrames.get();
    }

    private void run() {
        long backoff = FIRST_BACKOFF_MILLIS;
        while (!stopped) {
            InetSocketAddress master = settings.master();
            try (Socket s = new Socket()) {
                socket = s;
                s.connect(new InetSocketAddress(master.getHostString(), master.getPort()), CONNECT_TIMEOUT_MILLIS);
                s.setTcpNoDelay(true);
                s.setSoTimeout(POLL_MILLIS);
                problem = "";
                LOG.info("connected to master {}; this log ends at {}", settings.masterAddress(), log.maxOffset());
                backoff = FIRST_BACKOFF_MILLIS;
                String why = session(new BufferedInputStream(s.getInputStream(), READ_BUFFER_BYTES),
                        s.getOutputStream());
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
                socket = null;
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

    /** Runs one connection; returns why it ended (null on shutdown). */
    private String session(InputStream in, OutputStream out) throws IOException {
        long reported = report(out, log.maxOffset());
        long lastReportNanos = System.nanoTime();
        long lastHeardNanos = System.nanoTime();
        int filled = 0;
        int bodySize = -1;
        while (!stopped) {
            long now = System.nanoTime();
            if (now - lastReportNanos >= settings.heartbeatMillis() * 1_000_000) {
                reported = report(out, log.maxOffset());
                lastReportNanos = now;
            }
            if (now - lastHeardNanos > settings.housekeepingMillis() * 1_000_000) {
                return "nothing from the master for over " + settings.housekeepingMillis() + " ms; reconnecting";
            }
            byte[] target = bodySize < 0 ? header : body;
            int want = bodySize < 0 ? HaFrameFormat.HEADER_SIZE : bodySize;
            int n;
            try {
                n = want == filled ? 0 : in.read(target, filled, want - filled);
            } catch (SocketTimeoutException e) {
                continue;
            }
            if (n < 0) {
                return "the master closed the connection";
            }
            lastHeardNanos = System.nanoTime();
            filled += n;
            if (filled < want) {
                continue;
            }
            if (bodySize < 0) {
                bodySize = HaFrameFormat.bodySize(header);
                if (bodySize < 0 || bodySize > maxBody) {
                    rejectedFrames.incrementAndGet();
                    return "the master sent a frame of " + bodySize + " bytes (allowed 0.." + maxBody + "); reconnecting";
                }
                if (body.length < bodySize) {
                    body = new byte[bodySize];
                }
                filled = 0;
                if (bodySize > 0) {
                    continue;
                }
            }
            apply(HaFrameFormat.phyOffset(header), bodySize);
            lastFrameNanos = System.nanoTime();
            filled = 0;
            bodySize = -1;
            long end = log.maxOffset();
            if (end > reported && (end - reported >= MAX_UNREPORTED_BYTES || in.available() < HaFrameFormat.HEADER_SIZE)) {
                reported = report(out, end);
                lastReportNanos = System.nanoTime();
            }
        }
        return null;
    }

    /** Checks the frame's offset against this log's end, then appends its body there. */
    private void apply(long masterOffset, int size) {
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
        if (size > 0) {
            long begin = System.nanoTime();
            try {
                log.appendAt(masterOffset, ByteBuffer.wrap(body, 0, size));
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
    }

    private static long report(OutputStream out, long offset) throws IOException {
        out.write(HaFrameFormat.report(offset));
        out.flush();
        return offset;
    }

    void shutdown() {
        stopped = true;
        Socket s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                LOG.debug("closing the master connection: {}", e.toString());
            }
        }
        LockSupport.unpark(thread);
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
