package dev.hangar.launcher.command;

import dev.hangar.launcher.ErrorMessages;
import dev.hangar.launcher.LauncherException;
import dev.hangar.launcher.LoggingSetup;
import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.http.HttpApiServer;
import dev.hangar.launcher.http.HttpSettings;
import dev.hangar.spi.config.StoreConfig;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code serve}: opens the store and serves the HTTP API ({@link HttpApiServer}) until the process is told to stop.
 * Prints one line on stdout when ready, {@code listening on http://HOST:PORT}, with the real port when
 * {@code --port 0} asked for any free one.
 *
 * <p>Stopping: a shutdown hook stops the server (new requests 503, parked long polls answered, requests in flight
 * finished), then shuts the store down cleanly (everything flushed, no {@code abort} file). SIGINT and SIGTERM are
 * turned into a normal exit with status 0 ({@link SignalExit}), which runs that hook.
 *
 * <p>One instance per invocation; {@link #call()} blocks its thread until the process ends.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the store with its HTTP API until SIGINT/SIGTERM.", "Endpoints:",
                "  POST /v1/topics/{topic}/messages?queue=&key=&tag=&property=N=V",
                "       &delayLevel=&wait=   (body = message, or NDJSON: one message a line)",
                "  GET  /v1/topics/{topic}/queues/{q}/messages?offset=&max=&wait=MS",
                "  GET  /v1/messages/{msgId}   GET /v1/topics/{topic}/keys/{key}?max=",
                "  GET  /v1/stats   GET /metrics (Prometheus)   GET /health"},
        footer = {"", "Examples:",
                "  store-launcher --store /data/hangar serve --port 8080",
                "  curl --data-binary hello http://127.0.0.1:8080/v1/topics/Orders/messages",
                "  curl 'http://127.0.0.1:8080/v1/topics/Orders/queues/0/messages?wait=30000'",
                "  store-launcher -DhttpToken=s3cret serve --host 0.0.0.0",
                "      (clients then send 'Authorization: Bearer s3cret')"})
public final class ServeCommand implements Callable<Integer> {
    /**
     * The JDK server's limit on the time to receive a whole request, in seconds. Without it a client that sends a
     * body slowly or stalls holds a worker for ever. The JDK reads it once, when the first server is created; a
     * JVM option ({@code JDK_JAVA_OPTIONS=-Dsun.net.httpserver.maxReqTime=N}) wins. A parked long poll is not
     * affected: its request was received in full.
     */
    static final String MAX_REQUEST_SECONDS_PROPERTY = "sun.net.httpserver.maxReqTime";
    static final String DEFAULT_MAX_REQUEST_SECONDS = "60";

    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--host", paramLabel = "HOST", defaultValue = HttpSettings.DEFAULT_HOST,
            description = "Address to bind (default ${DEFAULT-VALUE}; the API has no TLS, set httpToken beyond loopback)")
    private String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + HttpSettings.DEFAULT_PORT,
            description = "Port to bind; 0 picks a free one (default ${DEFAULT-VALUE})")
    private int port;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "" + HttpSettings.DEFAULT_WORKERS,
            description = "Threads serving requests (default ${DEFAULT-VALUE})")
    private int workers;

    @Option(names = "--queue", paramLabel = "N", defaultValue = "" + HttpSettings.DEFAULT_QUEUE,
            description = "Requests waiting for a worker before new ones get 503 (default ${DEFAULT-VALUE})")
    private int queue;

    @Option(names = "--batch-max-messages", paramLabel = "N", defaultValue = "" + HttpSettings.DEFAULT_MAX_BATCH_MESSAGES,
            description = "Most messages (lines) in one NDJSON batch put (default ${DEFAULT-VALUE})")
    private int batchMaxMessages;

    @Option(names = "--batch-max-bytes", paramLabel = "BYTES", defaultValue = "" + HttpSettings.DEFAULT_MAX_BATCH_BYTES,
            description = "Largest NDJSON batch body in bytes (default ${DEFAULT-VALUE})")
    private int batchMaxBytes;

    @Override
    public Integer call() throws InterruptedException {
        HttpSettings settings;
        try {
            // checked before prepare() creates the store's log folder
            settings = HttpSettings.from(launcher.config(), host, port, workers, queue)
                    .withBatchLimits(batchMaxBytes, batchMaxMessages);
        } catch (IllegalArgumentException e) {
            throw new LauncherException(e.getMessage(), null, StoreLauncher.EXIT_USAGE);
        }
        LoggingSetup.keepWritersOpenAtExit();
        StoreConfig config = launcher.prepare("info", StoreUse.CREATE);
        // only now: a logger made before prepare() would start the logging backend unconfigured
        Logger log = LoggerFactory.getLogger(ServeCommand.class);
        if (System.getProperty(MAX_REQUEST_SECONDS_PROPERTY) == null) {
            System.setProperty(MAX_REQUEST_SECONDS_PROPERTY, DEFAULT_MAX_REQUEST_SECONDS);
        }
        StoreSession session = StoreSession.open(launcher, config, StoreUse.CREATE);
        HttpApiServer server = new HttpApiServer(session.store(), settings);
        try {
            server.start();
        } catch (IOException | RuntimeException e) {
            session.close();
            throw new LauncherException("cannot listen on " + host + ":" + port + ": " + ErrorMessages.oneLine(e), e);
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            log.info("stopping: finishing requests in flight, then shutting the store down");
            try {
                server.stop();
            } finally {
                session.close();
                stopped.countDown();
            }
        }, "hangar-serve-shutdown"));
        SignalExit.install();
        launcher.out().println("listening on " + server.url());
        launcher.out().flush();
        stopped.await();
        return 0;
    }
}
