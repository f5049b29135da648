package dev.hangar.ha;

import dev.hangar.spi.ha.ReplicatedLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slave, on one thread: reads its reports (8-byte offsets, also its acknowledgements) and ships frames
 * ({@link HaFrameFormat}) from where it asked, at most {@code haTransferBatchSize} bytes each, plus an empty frame
 * when nothing was sent for {@code haSendHeartbeatInterval}. Non-blocking with a selector: a slave that stops
 * reading cannot block this thread, and new data wakes it ({@link #dataArrived}): at most one put per sleep calls
 * {@code Selector.wakeup}, whose lock the selector thread also takes (every put calling it made a convoy of put
 * threads on that monitor, up to 300 ms on a loaded machine, delaying both the puts and the shipping).
 *
 * <p>What it refuses, closing the connection, logging why and counting it: a negative offset, an offset past this
 * master's end (a slave ahead of its master: it is first sent an empty frame at the master's end, so a Hangar
 * slave can say so), an offset that goes backwards or acknowledges bytes never sent, silence for
 * {@code haHousekeepingInterval} (including a half-sent report), and a peer that drains nothing for as long.
 */
final class SlaveConnection {
    private static final Logger LOG = LoggerFactory.getLogger(SlaveConnection.class);
    private static final long MAX_SELECT_MILLIS = 200;
    /** Frames shipped per wake-up at most, while the socket takes them (so reports are still read between bursts). */
    private static final int MAX_FRAMES_PER_WAKEUP = 8;
    /**
     * When no put waits for the slave (an ASYNC_MASTER), its reports do not wake this thread: they are read when it
     * wakes anyway (new data, the select timeout), at most this often. A slave reports after every frame it applies,
     * so a report-driven wake-up doubled this thread's wake-ups (and system calls) per shipped frame at paced rates,
     * for acknowledgements nobody waits on; the acknowledged offset in the status is at most this much older (or one
     * select timeout, when nothing is shipped).
     */
    static final long LAZY_REPORT_READ_NANOS = 10_000_000;
    /**
     * On an ASYNC_MASTER, while data keeps coming, this thread is not woken per put: after a wake-up that shipped
     * data it naps this long (no put wakes it meanwhile) and ships what gathered, as one frame; a nap that finds
     * nothing ends the gathering, and the next put wakes it at once again. At a paced rate a frame of one or two
     * messages cost the same system calls, loopback TCP work, slave wake-up, append and dispatcher wake-ups as a
     * frame of thirty: this bounds them to one per nap, for at most this much more lag. Nobody waits on an
     * ASYNC_MASTER's slave, so no put's latency grows; a SYNC_MASTER ships at once. 1 ms, not 200 µs: at a paced
     * 10k msg/s 200 µs still made frames of two messages, and this thread and the slave's client slept 0.2-0.3
     * times and spent 7-9 µs each per message; with 1 ms, 0.05-0.07 times and 3-5 µs. The price: a message may
     * wait up to one nap more before it ships, 10 % of the 10 ms lag target; what a nap gathers beyond one frame
     * ships at once after it (a full frame ends the gathering).
     */
    static final long GATHER_NANOS = 1_000_000;
    /** One read of the slave's reports takes at most this much: 512 reports. */
    private static final int REPORT_BUFFER_BYTES = 4096;
    /** Reads of reports per pass at most (64 KiB, 8 192 reports), so a flooding peer cannot pin this thread. */
    private static final int MAX_REPORT_READS_PER_PASS = 16;

    private final SocketChannel channel;
    private final HaSettings settings;
    private final ReplicatedLog log;
    private final MasterReplicationService master;
    private final String peer;
    /** True on a SYNC_MASTER: puts wait for the reports, so each one wakes this thread. */
    private final boolean promptReports;
    /** How long a gathering nap lasts ({@link #GATHER_NANOS}; 0 ships at once, as a SYNC_MASTER does). */
    private final long gatherNanos;
    /** True while data keeps coming: the next wait is a nap, not a sleep a put ends. */
    private boolean gathering;
    /** False while the last frame was a full batch: a backlog (a slave catching up) ships without naps. */
    private boolean caughtUp = true;
    private final Thread thread;
    private final ByteBuffer reports = ByteBuffer.allocate(REPORT_BUFFER_BYTES);
    /**
     * A frame's header and body, direct: the log copies its bytes into the body once, and the socket write sends
     * them from there (a heap buffer is first copied again into a temporary direct buffer by the JDK).
     */
    private final ByteBuffer header = ByteBuffer.allocateDirect(HaFrameFormat.HEADER_SIZE);
    private final ByteBuffer body;
    private final ByteBuffer[] frame;
    private Selector selector;
    /** True while the thread is about to sleep (or sleeps) for want of data; the first new put clears it and wakes it. */
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private volatile boolean stopped;
    /** Next offset to ship, -1 until the slave's first report. */
    private long nextTransfer = -1;
    private long acked = -1;
    /** The slave's newest acknowledgement, not yet passed to the waiting puts (see {@link #publishAck}). */
    private long ackToPublish = -1;
    private long lastReadNanos;
    /** When the reports were last read (with or without bytes). */
    private long lastReportReadNanos;
    private long lastDrainNanos;
    private long lastFrameNanos;
    /** Set when the connection must end once the pending frame is out. */
    private String closeReason;
    private boolean hadPending;
    /** Wake-ups because the slave's socket had bytes to read (a test counts them: none when reports are lazy). */
    private volatile long readableWakeups;
    /** Frames with data shipped (a test counts them: a gathering master ships fewer, larger ones). */
    private volatile long dataFrames;
    /** Gathering naps taken (a test counts them: none while a backlog ships). */
    private volatile long naps;
    /** Passes of {@link #readReports} that read bytes (a test counts them: one drains a pile of lazy reports). */
    private volatile long reportPasses;

    SlaveConnection(SocketChannel channel, HaSettings settings, ReplicatedLog log, MasterReplicationService master,
                    boolean promptReports, long gatherNanos) {
        this.promptReports = promptReports;
        this.gatherNanos = promptReports ? 0 : gatherNanos;
        this.channel = channel;
        this.settings = settings;
        this.log = log;
        this.master = master;
        this.peer = describe(channel);
        this.body = ByteBuffer.allocateDirect(settings.transferBatchSize());
        this.body.limit(0);
        this.header.limit(0);
        this.frame = new ByteBuffer[] {header, body};
        this.thread = new Thread(this::run, "hangar-ha-slave-" + peer);
        this.thread.setDaemon(true);
    }

    private static String describe(SocketChannel c) {
        try {
            return String.valueOf(c.getRemoteAddress()).replace("/", "");
        } catch (IOException e) {
            return "?";
        }
    }

    String peer() {
        return peer;
    }

    void start() {
        thread.start();
    }

    long readableWakeups() {
        return readableWakeups;
    }

    long dataFrames() {
        return dataFrames;
    }

    long naps() {
        return naps;
    }

    long reportPasses() {
        return reportPasses;
    }

    /**
     * New bytes exist: wake the thread if it sleeps for want of data. Called on every put, so the common case (the
     * thread is busy, or another put already woke it) is one volatile read.
     */
    void dataArrived() {
        if (sleeping.get() && sleeping.compareAndSet(true, false)) {
            Selector s = selector;
            if (s != null) {
                s.wakeup();
            }
        }
    }

    private void run() {
        boolean rejected = false;
        String why = "shut down";
        try (SocketChannel c = channel; Selector s = Selector.open()) {
            selector = s;
            c.configureBlocking(false);
            c.socket().setTcpNoDelay(true);
            SelectionKey key = c.register(s, SelectionKey.OP_READ);
            long now = System.nanoTime();
            lastReadNanos = now;
            lastReportReadNanos = now - LAZY_REPORT_READ_NANOS;
            lastDrainNanos = now;
            lastFrameNanos = now;
            while (!stopped) {
                long shippedBefore = nextTransfer;
                if (!pending() && closeReason == null && !gathering) {
                    prepareFrame();
                }
                boolean pending = pending();
                if (pending && !hadPending) {
                    lastDrainNanos = System.nanoTime(); // a new frame: the drain clock starts now
                }
                hadPending = pending;
                if (!pending && closeReason != null) {
                    why = closeReason;
                    rejected = true;
                    break;
                }
                // until the slave's first report nothing can be shipped: that one always wakes this thread
                boolean wakeOnReports = promptReports || nextTransfer < 0;
                key.interestOps((wakeOnReports ? SelectionKey.OP_READ : 0) | (pending ? SelectionKey.OP_WRITE : 0));
                if (pending) {
                    s.select(MAX_SELECT_MILLIS);
                } else if (gathering) {
                    // no "asleep" flag: the puts meanwhile do not wake this thread, the nap's end ships them all
                    naps++;
                    LockSupport.parkNanos(gatherNanos);
                } else {
                    // publish "asleep" before the last look at the log's end: a put that appends after that look
                    // sees the flag and wakes the selector (the log's end and the flag are both volatile)
                    sleeping.set(true);
                    if (!dataReady()) {
                        s.select(Math.min(MAX_SELECT_MILLIS, settings.heartbeatMillis()));
                    }
                    sleeping.set(false);
                }
                if (!s.selectedKeys().isEmpty() && key.isReadable()) {
                    readableWakeups++;
                }
                s.selectedKeys().clear();
                long woke = System.nanoTime();
                String problem = null;
                if (wakeOnReports || woke - lastReportReadNanos >= LAZY_REPORT_READ_NANOS) {
                    lastReportReadNanos = woke;
                    problem = readReports(c);
                }
                if (problem == null) {
                    problem = ship(c);
                }
                // gather after a wake-up that found data; stop when a nap found none (the next put wakes at once)
                gathering = gatherNanos > 0 && nextTransfer > shippedBefore && caughtUp && closeReason == null;
                // after shipping: the slave has the next bytes to append while this thread completes the puts
                publishAck();
                if (problem == null) {
                    problem = housekeeping();
                }
                if (problem != null) {
                    why = problem;
                    rejected = !problem.startsWith("the slave closed");
                    break;
                }
            }
        } catch (IOException e) {
            why = "I/O error: " + e.getMessage();
        } catch (RuntimeException e) {
            why = "unexpected " + e;
            LOG.error("connection to slave {} failed", peer, e);
        }
        if (!stopped) {
            if (rejected) {
                LOG.warn("closed the connection to slave {}: {}", peer, why);
            } else {
                LOG.info("slave {} disconnected: {}", peer, why);
            }
        }
        master.closed(this, rejected && !stopped);
    }

    private boolean pending() {
        return header.hasRemaining() || body.hasRemaining();
    }

    /** True when bytes past what was shipped exist (so sleeping would delay them). */
    private boolean dataReady() {
        return nextTransfer >= 0 && closeReason == null && log.maxOffset() > nextTransfer;
    }

    /**
     * Reads and checks what the slave sent; returns why the connection must close, or null. Reads again while a read
     * filled the buffer: read lazily, reports pile up in the socket (a slave reports after every read it applies),
     * and one buffer per pass let the acknowledged offset fall ever further behind once more than a buffer's worth
     * arrived between two passes (128 reports of a 1 KiB buffer every 10 ms: 13k reports/s). Bounded, so a peer
     * that floods reports cannot pin this thread away from shipping; a read that left room drained the socket, so
     * no empty read follows it.
     */
    private String readReports(SocketChannel c) throws IOException {
        for (int reads = 0; reads < MAX_REPORT_READS_PER_PASS; reads++) {
            int room = reports.remaining();
            int n = c.read(reports);
            if (n < 0) {
                return "the slave closed the connection";
            }
            if (n == 0) {
                return null;
            }
            if (reads == 0) {
                reportPasses++;
            }
            lastReadNanos = System.nanoTime();
            reports.flip();
            String problem = null;
            while (problem == null && reports.remaining() >= HaFrameFormat.REPORT_SIZE) {
                problem = onReport(reports.getLong());
            }
            reports.compact();
            if (problem != null || n < room) {
                return problem;
            }
        }
        return null;
    }

    private String onReport(long offset) {
        if (offset < 0) {
            return "the slave reported a negative offset " + offset;
        }
        long end = log.maxOffset();
        if (nextTransfer < 0) {
            return onFirstReport(offset, end);
        }
        if (offset < acked) {
            return "the slave's offset went backwards from " + acked + " to " + offset;
        }
        if (offset > nextTransfer) {
            return "the slave acknowledged offset " + offset + " but was sent bytes only up to " + nextTransfer;
        }
        acked = offset;
        ackToPublish = offset;
        return null;
    }

    /** Releases the puts the slave's newest report covers (runs their completions on this thread). */
    private void publishAck() {
        if (ackToPublish >= 0) {
            long offset = ackToPublish;
            ackToPublish = -1;
            master.acknowledged(offset);
        }
    }

    private String onFirstReport(long offset, long end) {
        if (offset > end) {
            // tell the slave where this log ends (a Hangar slave stops and says so), then close
            HaFrameFormat.putHeader(header, end, 0);
            closeReason = "the slave is ahead of this master: it reports offset " + offset + ", this log ends at "
                    + end + " (an old master after a failover?)";
            return null;
        }
        long min = log.minOffset();
        long start;
        if (offset == 0) {
            start = Math.max(0, min);
        } else if (min >= 0 && offset < min) {
            HaFrameFormat.putHeader(header, min, 0);
            closeReason = "the slave asks for offset " + offset + ", older than this log's first retained byte " + min;
            return null;
        } else {
            start = offset;
        }
        nextTransfer = start;
        acked = offset;
        master.acknowledged(offset);
        LOG.info("slave {} reports offset {}: shipping from {}", peer, offset, start);
        return null;
    }

    /** Fills the next frame: data when there is some, an empty frame when the heartbeat is due. */
    private void prepareFrame() {
        if (nextTransfer < 0) {
            return;
        }
        body.clear();
        int n = log.read(nextTransfer, body);
        if (n < 0) {
            long min = log.minOffset();
            body.limit(0);
            HaFrameFormat.putHeader(header, min, 0);
            closeReason = "offset " + nextTransfer + " was deleted before it reached the slave (log starts at " + min + ")";
            return;
        }
        body.flip();
        if (n > 0) {
            HaFrameFormat.putHeader(header, nextTransfer, n);
            nextTransfer += n;
            dataFrames++;
            caughtUp = n < body.capacity();
            master.shippedBytes(n);
            lastFrameNanos = System.nanoTime();
        } else if (System.nanoTime() - lastFrameNanos >= settings.heartbeatMillis() * 1_000_000) {
            HaFrameFormat.putHeader(header, nextTransfer, 0);
            lastFrameNanos = System.nanoTime();
        }
    }

    /**
     * Writes the pending frame and, while the socket takes them whole, up to {@link #MAX_FRAMES_PER_WAKEUP} further
     * frames of data (each at most {@code haTransferBatchSize}, as the protocol has them), without a select between.
     */
    private String ship(SocketChannel c) throws IOException {
        for (int frames = 0; frames < MAX_FRAMES_PER_WAKEUP; frames++) {
            if (!pending()) {
                if (closeReason != null || !dataReady()) {
                    return null;
                }
                prepareFrame();
                if (!pending()) {
                    return null;
                }
            }
            long n = c.write(frame);
            if (n > 0) {
                lastDrainNanos = System.nanoTime();
            }
            if (pending()) {
                return null; // the socket is full: select waits until it drains
            }
        }
        return null;
    }

    private String housekeeping() {
        long now = System.nanoTime();
        long limit = settings.housekeepingMillis() * 1_000_000;
        if (now - lastReadNanos > limit) {
            return "nothing (or only part of a report) from the slave for over " + settings.housekeepingMillis() + " ms";
        }
        if (pending() && now - lastDrainNanos > limit) {
            return "the slave stopped reading: nothing drained for over " + settings.housekeepingMillis() + " ms";
        }
        return null;
    }

    void shutdown() {
        stopped = true;
        Selector s = selector;
        if (s != null) {
            s.wakeup();
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
