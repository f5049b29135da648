package dev.hangar.launcher.http;

import com.sun.net.httpserver.HttpServer;
import dev.hangar.launcher.consumer.TopicCatalog;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API of a running store ({@code store-launcher serve}), on the JDK's
 * {@code com.sun.net.httpserver}:
 * <pre>
 *   POST /v1/topics/{topic}/messages?queue=Q&amp;key=K&amp;tag=T      put (body = message body)      {@link PutMessageHandler}
 *        the same with Content-Type: application/x-ndjson         batch put, one message a line {@link BatchPutHandler}
 *   GET  /v1/topics/{topic}/queues/{q}/messages?offset=&amp;max=&amp;wait=  read, long polling      {@link GetMessagesHandler}
 *   GET  /v1/messages/{msgId}                                     by message id             {@link MessageLookupHandler}
 *   GET  /v1/topics/{topic}/keys/{key}?max=                       by key                    {@link KeyQueryHandler}
 *   GET  /v1/stats   GET /metrics   GET /health
 *   GET  /   GET /console/...                                     the web console (no token for its files) {@link ConsoleHandler}
 *   GET  /v1/messages/{msgId}/body, /v1/topics/{topic}/queues/{q}/messages/{offset}/body   raw body {@link MessageBodyHandler}
 *   GET  /v1/topics, /v1/topics/{topic}, /v1/topics/{topic}/queues/{q}/offset   discovery, seek {@link TopicHandler}
 *   /v1/groups...                                                 consumer groups  {@link GroupOffsetHandler},
 *                                                                 {@link GroupMessagesHandler}
 *   /v1/raft...                                                   a raft node's group {@link RaftHandler}
 * </pre>
 * On a node of a consensus group (a {@code raft} node) that is not its ready leader, every write is redirected to
 * the leader or refused ({@link LeaderGate}); reads are served by every node.
 * Requests run on a bounded {@link WorkerPool} (overload is a 503); puts awaiting a flush and parked long polls
 * hold no worker and are bounded by {@code maxPending}. An idle keep-alive connection holds no worker either: the
 * JDK server watches idle connections on its one selector thread and hands a connection to a worker only when a
 * request arrives on it. TCP_NODELAY is on (see {@link #NODELAY_PROPERTY}). The store is the caller's: this server never starts or
 * shuts it down.
 *
 * <p>{@link #stop()} refuses new requests (503), answers the parked long polls, waits for the requests in flight
 * (at most the grace period), then closes the listener and the connections. The JDK 17 server's own
 * {@code stop(delay)} always sleeps the whole delay, so the waiting is done here and it is called with 0.
 *
 * <p>Thread-safe: start and stop may be called from any thread, once each.
 */
public final class HttpApiServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpApiServer.class);
    private static final int BACKLOG = 128;
    /**
     * The JDK server's switch for TCP_NODELAY on accepted connections; off by default. Off, a keep-alive client
     * waits about 40 ms per request: the answer's headers and body go out as two small writes, Nagle's algorithm
     * holds the second until the first is acknowledged, and the client delays that acknowledgement.
     */
    static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

    static {
        // The JDK reads its server settings once, when its first server is created: this class is loaded before
        // any server of ours is, so setting the property here reaches the JDK in time. A value given on the
        // command line (-Dsun.net.httpserver.nodelay=false) still wins.
        if (System.getProperty(NODELAY_PROPERTY) == null) {
            System.setProperty(NODELAY_PROPERTY, "true");
        }
    }

    private final DefaultMessageStore store;
    private final HttpSettings settings;
    private final HttpCounters counters = new HttpCounters();
    private final Semaphore pending;
    private volatile boolean stopping;
    private HttpServer server;
    private WorkerPool workers;
    private ThreadPoolExecutor responder;
    private ScheduledThreadPoolExecutor timer;
    private LongPollRegistry longPolls;

    /** @param store a started store; it must outlive this server */
    public HttpApiServer(DefaultMessageStore store, HttpSettings settings) {
        this.store = store;
        this.settings = settings;
        this.pending = new Semaphore(settings.maxPending());
    }

    /**
     * Binds and starts serving.
     *
     * @return the address bound (with the real port when the settings ask for port 0)
     * @throws IOException when the address cannot be bound (in use, not local, cannot be resolved)
     */
    public synchronized InetSocketAddress start() throws IOException {
        if (server != null || stopping) {
            throw new IllegalStateException("the server was already started");
        }
        InetSocketAddress bind = new InetSocketAddress(settings.host(), settings.port());
        if (bind.isUnresolved()) {
            throw new IOException("cannot resolve the host " + settings.host());
        }
        workers = new WorkerPool(settings.workers(), settings.queueCapacity());
        int responders = Math.max(2, Math.min(8, settings.workers()));
        responder = new ThreadPoolExecutor(responders, responders, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                daemonThreads("hangar-http-respond"));
        responder.allowCoreThreadTimeOut(true);
        timer = new ScheduledThreadPoolExecutor(1, daemonThreads("hangar-http-timer"));
        timer.setRemoveOnCancelPolicy(true);
        Executor respond = WorkerPool.orCaller(responder);
        longPolls = new LongPollRegistry(store, timer, respond, pending);
        // before the first request can park: a message that arrives meanwhile must wake it
        store.addMessageArrivingListener(longPolls);
        try {
            HttpServer s = HttpServer.create(bind, BACKLOG);
            s.createContext("/", new ConsoleHandler(routes(respond), counters, () -> stopping));
            s.setExecutor(workers);
            s.start();
            server = s;
        } catch (IOException | RuntimeException e) {
            shutdownExecutors(0);
            throw e;
        }
        LOG.info("HTTP API listening on {} ({} workers, queue {}, token {}, body limit {} bytes)", url(),
                settings.workers(), settings.queueCapacity(), settings.requiresToken() ? "required" : "not required",
                settings.maxBodyBytes());
        if (!server.getAddress().getAddress().isLoopbackAddress() && !settings.requiresToken()) {
            LOG.warn("the HTTP API listens on {} without a token: anyone who can reach it can read and write the "
                    + "store (set httpToken)", server.getAddress());
        }
        return address();
    }

    private Router routes(Executor respond) {
        Duration putBound = Duration.ofMillis(store.config().get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT)).plusSeconds(30);
        int delayLevels = store.config().get(StoreConfigKeys.MESSAGE_DELAY_LEVEL).strip().split("\\s+").length;
        BatchPutHandler batches = new BatchPutHandler(store, respond, pending, putBound, settings.maxBatchBytes(),
                settings.maxBatchMessages(), store.config().get(StoreConfigKeys.MAX_MESSAGE_SIZE), delayLevels);
        int largestBody = Math.max(settings.maxBodyBytes(), settings.maxBatchBytes());
        TopicCatalog catalog = new TopicCatalog(store);
        TopicHandler topics = new TopicHandler(store, catalog);
        GroupOffsetHandler groups = new GroupOffsetHandler(store);
        MessageBodyHandler bodies = new MessageBodyHandler(store);
        // every write a node of a consensus group takes only as its ready leader: elsewhere a 307 to the leader
        LeaderGate leader = new LeaderGate(store);
        RaftHandler raft = new RaftHandler(store, respond);
        return new Router(settings.token(), largestBody, counters, () -> stopping)
                .add("POST", "/v1/topics/{topic}/messages", PutMessageHandler.QUERY,
                        leader.writes(new PutMessageHandler(store, respond, pending, settings.maxBodyBytes(), putBound,
                                delayLevels, batches)))
                .add("GET", "/v1/topics/{topic}/queues/{q}/messages", GetMessagesHandler.QUERY,
                        new GetMessagesHandler(store, longPolls))
                .add("GET", "/v1/messages/{msgId}", Set.of(), new MessageLookupHandler(store))
                .add("GET", "/v1/topics/{topic}/keys/{key}", KeyQueryHandler.QUERY,
                        new KeyQueryHandler(store, store.config().get(StoreConfigKeys.DEFAULT_QUERY_MAX_NUM)))
                .add("GET", "/v1/stats", Set.of(), new StatsHandler(store, this::serverStats))
                .add("GET", "/metrics", Set.of(), new MetricsHandler(store, this::serverMetrics))
                .add("GET", "/health", Set.of(), new HealthHandler(store))
                .add("GET", "/v1/topics", Set.of(), topics::list)
                .add("GET", "/v1/topics/{topic}", Set.of(), topics::show)
                .add("DELETE", "/v1/topics/{topic}", TopicDeleteHandler.QUERY,
                        leader.writes(new TopicDeleteHandler(store)::delete))
                .add("GET", "/v1/topics/{topic}/queues/{q}/offset", TopicHandler.OFFSET_QUERY, topics::offset)
                .add("GET", "/v1/messages/{msgId}/body", Set.of(), bodies::byId)
                .add("GET", "/v1/topics/{topic}/queues/{q}/messages/{offset}/body", Set.of(), bodies::byQueueOffset)
                .add("GET", "/v1/groups", Set.of(), groups::list)
                .add("GET", "/v1/groups/{group}", Set.of(), groups::show)
                .add("DELETE", "/v1/groups/{group}", Set.of(), leader.writes(groups::delete))
                .add("POST", "/v1/groups/{group}/topics/{topic}/queues/{q}/offset", GroupOffsetHandler.COMMIT_QUERY,
                        leader.writes(groups::commit))
                .add("POST", "/v1/groups/{group}/topics/{topic}/reset", GroupOffsetHandler.RESET_QUERY,
                        leader.writes(groups::reset))
                .add("GET", "/v1/groups/{group}/topics/{topic}/queues/{q}/messages", GroupMessagesHandler.QUERY,
                        new GroupMessagesHandler(store, catalog, longPolls))
                .add("GET", "/v1/raft", Set.of(), raft::status)
                .add("POST", "/v1/raft/transfer-leader", RaftHandler.PEER_QUERY, raft::transferLeader)
                .add("POST", "/v1/raft/peers", RaftHandler.PEER_QUERY, raft::addPeer)
                .add("DELETE", "/v1/raft/peers/{id}", Set.of(), raft::removePeer);
    }

    /** The address bound, with the real port. */
    public synchronized InetSocketAddress address() {
        if (server == null) {
            throw new IllegalStateException("the server is not started");
        }
        return server.getAddress();
    }

    /** {@code http://HOST:PORT} as a client reaches it: the host as configured, the port as bound. */
    public String url() {
        InetSocketAddress bound = address();
        String host = settings.host();
        if (host.contains(":") && !host.startsWith("[")) {
            // an IPv6 literal
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + bound.getPort();
    }

    /** The JDK server underneath (tests inspect its connections). */
    synchronized HttpServer jdkServer() {
        return server;
    }

    /** Requests parked in long polls now. */
    public int parkedPolls() {
        LongPollRegistry registry = longPolls;
        return registry == null ? 0 : registry.parked();
    }

    /** Workers running a request now. */
    public int busyWorkers() {
        WorkerPool pool = workers;
        return pool == null ? 0 : pool.busy();
    }

    /** Requests waiting for a worker now. */
    public int queuedRequests() {
        WorkerPool pool = workers;
        return pool == null ? 0 : pool.queued();
    }

    private Map<String, Object> serverStats() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("url", url());
        m.put("workers", workers.workerCount());
        m.put("busyWorkers", workers.busy());
        m.put("queuedRequests", workers.queued());
        m.put("queueCapacity", workers.queueCapacity());
        m.put("overloadRejections", workers.shedCount());
        m.put("parkedPolls", longPolls.parked());
        m.put("inFlight", counters.inFlight());
        Map<String, Object> responses = new LinkedHashMap<>();
        counters.responses().forEach((status, count) -> responses.put(String.valueOf(status), count));
        m.put("responses", responses);
        return m;
    }

    private void serverMetrics(PrometheusWriter w) {
        Map<String, Long> responses = new LinkedHashMap<>();
        counters.responses().forEach((status, count) -> responses.put(String.valueOf(status), count));
        w.counters("hangar_http_responses_total", "HTTP answers by status code", "code", responses);
        w.counter("hangar_http_overload_rejections_total", "Requests answered 503 because every worker was busy "
                + "and the queue full", workers.shedCount());
        w.gauge("hangar_http_busy_workers", "Workers running a request", workers.busy());
        w.gauge("hangar_http_queued_requests", "Requests waiting for a worker", workers.queued());
        w.gauge("hangar_http_parked_polls", "Long polls waiting for a message", longPolls.parked());
    }

    /**
     * Stops serving: new requests get 503, parked long polls are answered, requests in flight get up to the grace
     * period to finish, then the listener and every connection are closed. Idempotent; the store stays open.
     */
    public void stop() {
        HttpServer s;
        synchronized (this) {
            if (stopping) {
                return;
            }
            stopping = true;
            s = server;
        }
        if (s == null) {
            return;
        }
        long graceMillis = TimeUnit.SECONDS.toMillis(settings.shutdownGraceSeconds());
        longPolls.close();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        while (counters.inFlight() > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (counters.inFlight() > 0) {
            LOG.warn("{} HTTP requests still unanswered after {} ms: closing their connections", counters.inFlight(), graceMillis);
        }
        s.stop(0);
        shutdownExecutors(graceMillis);
        LOG.info("HTTP API on {} stopped", s.getAddress());
    }

    @Override
    public void close() {
        stop();
    }

    private void shutdownExecutors(long graceMillis) {
        try {
            workers.shutdown(graceMillis);
            responder.shutdown();
            if (!responder.awaitTermination(Math.max(graceMillis, 100), TimeUnit.MILLISECONDS)) {
                responder.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            responder.shutdownNow();
        }
        timer.shutdownNow();
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
