package dev.hangar.ha;

import dev.hangar.spi.ha.BrokerRole;
import dev.hangar.spi.ha.ReplicatedLog;
import dev.hangar.spi.ha.ReplicationService;
import dev.hangar.spi.ha.ReplicationStatus;
import dev.hangar.spi.store.PutMessageStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master: accepts slaves on {@code haListenHost:haListenPort}, runs one {@link SlaveConnection} per slave, and
 * answers SYNC_MASTER puts through {@link AckWaiters}. ASYNC_MASTER puts complete at once; both wake the
 * connections so new bytes are shipped without polling.
 *
 * <p>A fresh slave (reporting offset 0) gets the whole retained log, from this master's oldest file, where
 * RocketMQ 4.x would start it at its newest file: a copy that starts at the newest file cannot answer reads of
 * older messages nor serve as a complete master after a failover.
 *
 * <p>With {@code haAllowedSlaves} set, a connection from any other address is closed right after the accept, before
 * a byte is read or written: the protocol has no authentication, and whoever connects is sent the whole log.
 */
final class MasterReplicationService implements ReplicationService {
    private static final Logger LOG = LoggerFactory.getLogger(MasterReplicationService.class);

    private final BrokerRole role;
    private final HaSettings settings;
    private final ReplicatedLog log;
    private final AckWaiters waiters;
    private final long gatherNanos;
    private final List<SlaveConnection> connections = new CopyOnWriteArrayList<>();
    private final RateMeter shipped = new RateMeter();
    private final AtomicLong rejected = new AtomicLong();
    private final RefusedPeerWarnings refusedWarnings;
    private volatile long caughtUpAtNanos = System.nanoTime();
    private volatile boolean stopped;
    private ServerSocketChannel server;
    private Thread acceptor;
    private String listenAddress = "";

    MasterReplicationService(BrokerRole role, HaSettings settings, ReplicatedLog log) {
        this(role, settings, log, SlaveConnection.GATHER_NANOS);
    }

    /** {@code gatherNanos}: an ASYNC_MASTER's gathering nap ({@link SlaveConnection#GATHER_NANOS}; tests vary it). */
    MasterReplicationService(BrokerRole role, HaSettings settings, ReplicatedLog log, long gatherNanos) {
        this.gatherNanos = gatherNanos;
        this.role = role;
        this.settings = settings;
        this.log = log;
        this.waiters = new AckWaiters(settings.syncTimeoutMillis());
        this.refusedWarnings = new RefusedPeerWarnings(settings.allowedSlaves().toString(), System::nanoTime);
    }

    @Override
    public void start() {
        try {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(settings.listenHost(), settings.listenPort()));
            InetSocketAddress bound = (InetSocketAddress) server.getLocalAddress();
            listenAddress = bound.getHostString() + ":" + bound.getPort();
        } catch (IOException e) {
            closeQuietly();
            throw new UncheckedIOException("cannot listen for slaves on " + settings.listenHost() + ":"
                    + settings.listenPort() + " (haListenHost/haListenPort): " + e.getMessage(), e);
        }
        waiters.start();
        acceptor = new Thread(this::accept, "hangar-ha-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        LOG.info("{} listening for slaves on {}{}", role, listenAddress, settings.allowedSlaves().isEmpty() ? ""
                : " from " + settings.allowedSlaves() + " only (haAllowedSlaves)");
    }

    private void accept() {
        while (!stopped) {
            try {
                SocketChannel channel = server.accept();
                if (!admitted(channel)) {
                    continue;
                }
                SlaveConnection c = new SlaveConnection(channel, settings, log, this, role == BrokerRole.SYNC_MASTER,
                        gatherNanos);
                connections.add(c);
                LOG.info("slave {} connected ({} now)", c.peer(), connections.size());
                c.start();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!stopped) {
                    LOG.warn("accepting a slave failed: {}", e.toString());
                }
            }
        }
    }

    /** False (after closing and counting it) for a connection from an address not in {@code haAllowedSlaves}. */
    private boolean admitted(SocketChannel channel) {
        if (settings.allowedSlaves().isEmpty()) {
            return true;
        }
        InetAddress peer = channel.socket().getInetAddress();
        if (peer != null && settings.allowedSlaves().contains(peer)) {
            return true;
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("closing a refused HA connection: {}", e.toString());
        }
        rejected.incrementAndGet();
        String warning = peer == null ? null : refusedWarnings.refused(peer);
        if (warning != null) {
            LOG.warn(warning);
        }
        return false;
    }

    /** Called by a connection when its slave acknowledges {@code offset}. */
    void acknowledged(long offset) {
        waiters.acknowledge(offset);
        if (offset >= log.maxOffset()) {
            caughtUpAtNanos = System.nanoTime();
        }
    }

    /** Wake-ups of the connection threads by a readable socket, summed over the connected slaves (for tests). */
    long readableWakeups() {
        long sum = 0;
        for (SlaveConnection c : connections) {
            sum += c.readableWakeups();
        }
        return sum;
    }

    /** Frames with data shipped, summed over the connected slaves (for tests). */
    long dataFrames() {
        long sum = 0;
        for (SlaveConnection c : connections) {
            sum += c.dataFrames();
        }
        return sum;
    }

    /** Passes that read reports with bytes, summed over the connected slaves (for tests). */
    long reportPasses() {
        long sum = 0;
        for (SlaveConnection c : connections) {
            sum += c.reportPasses();
        }
        return sum;
    }

    /** Gathering naps of the connection threads, summed over the connected slaves (for tests). */
    long naps() {
        long sum = 0;
        for (SlaveConnection c : connections) {
            sum += c.naps();
        }
        return sum;
    }

    void shippedBytes(int n) {
        shipped.add(n);
    }

    /** Called by a connection when it closes; {@code rejectedPeer} counts bad input and stalled peers. */
    void closed(SlaveConnection c, boolean rejectedPeer) {
        connections.remove(c);
        if (rejectedPeer) {
            rejected.incrementAndGet();
        }
    }

    @Override
    public CompletableFuture<PutMessageStatus> handle(long nextOffset, boolean waitForReplica) {
        for (SlaveConnection c : connections) {
            c.dataArrived();
        }
        if (role != BrokerRole.SYNC_MASTER || !waitForReplica) {
            return SettledOutcomes.PUT_OK;
        }
        if (slaveProblem(nextOffset) != null) {
            return SettledOutcomes.SLAVE_NOT_AVAILABLE;
        }
        CompletableFuture<PutMessageStatus> acked = waiters.await(nextOffset);
        if (!acked.isDone()) {
            log.readableWanted(nextOffset);
        }
        return acked;
    }

    /** The committer made appends readable: ship them now (the puts' own wake-ups came before they were). */
    @Override
    public void readableEndMoved() {
        for (SlaveConnection c : connections) {
            c.dataArrived();
        }
    }

    /** Why no slave can take a put ending at {@code masterEnd}, or null: RocketMQ's rule, plus a readable reason. */
    private String slaveProblem(long masterEnd) {
        if (connections.isEmpty()) {
            return "no slave is connected to " + listenAddress;
        }
        long behind = masterEnd - Math.max(0, waiters.acked());
        if (behind >= settings.slaveFallBehindMax()) {
            return "the best slave is " + behind + " bytes behind (haSlaveFallbehindMax " + settings.slaveFallBehindMax()
                    + ")";
        }
        return null;
    }

    @Override
    public ReplicationStatus status() {
        long end = log.maxOffset();
        long acked = waiters.acked();
        long lag = acked < 0 ? end : Math.max(0, end - acked);
        long lagMillis = lag == 0 ? 0 : (System.nanoTime() - caughtUpAtNanos) / 1_000_000;
        String problem = slaveProblem(end);
        return new ReplicationStatus(role, listenAddress, "", connections.size(), acked, lag, lagMillis,
                shipped.bytesPerSecond(), rejected.get(), problem == null ? "" : problem);
    }

    @Override
    public void shutdown() {
        stopped = true;
        closeQuietly();
        if (acceptor != null) {
            try {
                acceptor.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (SlaveConnection c : connections) {
            c.shutdown();
        }
        waiters.shutdown();
    }

    private void closeQuietly() {
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException e) {
            LOG.debug("closing the HA port: {}", e.toString());
        }
    }
}
