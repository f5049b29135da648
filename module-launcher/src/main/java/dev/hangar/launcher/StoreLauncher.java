package dev.hangar.launcher;

import dev.hangar.launcher.command.BenchCommand;
import dev.hangar.launcher.command.CleanCommand;
import dev.hangar.launcher.command.ConfigCommand;
import dev.hangar.launcher.command.ConsumeCommand;
import dev.hangar.launcher.command.GroupsCommand;
import dev.hangar.launcher.command.TopicsCommand;
import dev.hangar.launcher.command.GetCommand;
import dev.hangar.launcher.command.PluginsCommand;
import dev.hangar.launcher.command.PutCommand;
import dev.hangar.launcher.command.RaftCommand;
import dev.hangar.launcher.command.QueryCommand;
import dev.hangar.launcher.command.ServeCommand;
import dev.hangar.launcher.command.StatCommand;
import dev.hangar.launcher.command.VerifyCommand;
import dev.hangar.launcher.config.ConfigLoader;
import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import dev.hangar.store.StoreGeometry;
import dev.hangar.store.assembly.ProviderRegistry;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code store-launcher}: the operator's command line. Holds the global options, layers the
 * configuration ({@link ConfigLoader}), sets up logging, finds the providers, and turns every failure into
 * one "error: ..." line on stderr with a non-zero exit code (the stack trace only with {@code --verbose}).
 *
 * <p>Exit codes: 0 success, 1 the operation failed (a refused put, a store that cannot open, ...),
 * 2 bad usage or configuration.
 *
 * <p>One instance serves one invocation, on one thread; not thread-safe.
 */
@Command(name = "store-launcher", mixinStandardHelpOptions = true, versionProvider = LauncherVersion.class,
        sortOptions = false, usageHelpAutoWidth = true,
        description = "Hangar: a RocketMQ-compatible message store on memory-mapped files.",
        subcommands = {ServeCommand.class, BenchCommand.class, PutCommand.class, GetCommand.class, QueryCommand.class,
                StatCommand.class, VerifyCommand.class, CleanCommand.class, PluginsCommand.class, ConfigCommand.class,
                TopicsCommand.class, GroupsCommand.class, ConsumeCommand.class, RaftCommand.class},
        footer = {"",
                "Examples:",
                "  store-launcher --store /data/hangar serve --port 8080",
                "  store-launcher --store /tmp/s -DflushDiskType=SYNC_FLUSH bench --threads 8",
                "  store-launcher --store /data/hangar verify --json",
                "  store-launcher raft status --url http://127.0.0.1:8080",
                "",
                "Configuration precedence: defaults < --config FILE < HANGAR_* environment < -Dkey=value < --store.",
                "HANGAR_FLUSH_DISK_TYPE=SYNC_FLUSH sets flushDiskType. `store-launcher config --doc` lists every key.",
                "Log levels: -Dhangar.log.level=debug (or info, warn, error) before the command, or in JDK_JAVA_OPTIONS."})
public final class StoreLauncher implements Callable<Integer> {
    /** Exit code of bad usage or configuration. */
    public static final int EXIT_USAGE = 2;

    @Option(names = "--config", paramLabel = "FILE", description = "Properties file of configuration keys "
            + "(a RocketMQ broker.conf works: store keys are used, broker keys ignored with a warning)")
    private Path configFile;

    @Option(names = "--store", paramLabel = "DIR", description = "Store directory (storePathRootDir); default ./store")
    private String storeDir;

    @Option(names = "--plugins", paramLabel = "DIR", description = "Folder of plugin module jars; default: the "
            + "image's plugins/ folder")
    private Path pluginsOption;

    @Option(names = "-D", paramLabel = "key=value", description = "Set a configuration key (repeatable; before the command)")
    private Map<String, String> definitions = new LinkedHashMap<>();

    @Option(names = "--verbose", description = "Debug logging, and stack traces with errors")
    private boolean verbose;

    private final Map<String, String> environment;
    private final InputStream stdin;
    private CommandLine commandLine;
    private StoreConfig config;
    private ProviderRegistry registry;

    /**
     * @param environment the environment to read {@code HANGAR_*} variables from
     * @param stdin       where {@code put --lines} reads
     */
    public StoreLauncher(Map<String, String> environment, InputStream stdin) {
        this.environment = Map.copyOf(environment);
        this.stdin = stdin;
    }

    public static void main(String[] args) {
        sizeTheAsyncPool(Runtime.getRuntime().availableProcessors());
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(args, System.getenv(), System.in, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }

    static final String COMMON_POOL_PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    /**
     * On a machine with one or two CPUs the JDK's common pool has a parallelism of one, and {@code CompletableFuture}
     * then runs every {@code ...Async} step without an executor on a new thread. Ratis does that for every append a
     * follower receives: ~1,000 threads started and ended a second on each follower in a closed loop of puts
     * (docs/PERFORMANCE.md 54). A parallelism of two gives those steps the pool's threads. It must be set before
     * {@code CompletableFuture} is first used, hence here; a value the user gave ({@code -D...} in conf/jvm.options
     * or $HANGAR_JAVA_OPTS) stays.
     */
    static void sizeTheAsyncPool(int cpus) {
        if (cpus <= 2 && System.getProperty(COMMON_POOL_PARALLELISM) == null) {
            System.setProperty(COMMON_POOL_PARALLELISM, "2");
        }
    }

    /** Runs one invocation in-process and returns its exit code; {@code out} and {@code err} are flushed. */
    public static int run(String[] args, Map<String, String> environment, InputStream stdin, PrintWriter out,
                          PrintWriter err) {
        StoreLauncher launcher = new StoreLauncher(environment, stdin);
        int code = launcher.commandLine(out, err).execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The picocli command line of this launcher, writing to {@code out} and {@code err}. */
    public CommandLine commandLine(PrintWriter out, PrintWriter err) {
        commandLine = new CommandLine(this);
        commandLine.setOut(out);
        commandLine.setErr(err);
        // `--plugins plugins` and `--store stat` name folders, not commands
        commandLine.setAllowSubcommandsAsOptionParameters(true);
        commandLine.setParameterExceptionHandler(this::usageError);
        commandLine.setExecutionExceptionHandler((ex, cmd, parsed) -> failure(ex));
        return commandLine;
    }

    @Override
    public Integer call() {
        commandLine.usage(err());
        return EXIT_USAGE;
    }

    /**
     * Loads the configuration, sets up logging, and logs the configuration warnings. Commands call it first,
     * before anything logs.
     *
     * @param consoleLevel the console log level unless {@code --verbose} or the JVM option says otherwise
     * @param use          how the command uses the store: commands that open one also log into
     *                     {@code <store>/logs/}
     */
    public StoreConfig prepare(String consoleLevel, StoreUse use) {
        StoreConfig loaded = config();
        LoggingSetup.configure(verbose, consoleLevel, use == StoreUse.NONE ? null : storeLogDir(use));
        loaded.warnings().forEach(w -> LoggerFactory.getLogger(StoreLauncher.class).warn(w));
        return loaded;
    }

    /**
     * {@code <store>/logs/}, created when needed; null when there is no store to log into (a read command on a
     * missing store) or the folder cannot be made - opening the store then reports the real problem.
     */
    private Path storeLogDir(StoreUse use) {
        Path store = storePath();
        if (use != StoreUse.CREATE && !Files.isDirectory(store)) {
            return null;
        }
        Path logs = store.resolve("logs");
        try {
            Files.createDirectories(logs);
        } catch (IOException | SecurityException e) {
            return null;
        }
        return Files.isWritable(logs) ? logs : null;
    }

    /**
     * The effective configuration, loaded once, with the keys the providers found declare. File sizes left at their defaults take the sizes of the store's
     * existing files, so a store written with other sizes opens without repeating them.
     */
    public StoreConfig config() {
        if (config == null) {
            config = StoreGeometry.resolve(new ConfigLoader(environment).load(configFile, storeDefinitions(), storeDir,
                    registry()));
        }
        return config;
    }

    /**
     * The {@code -D} definitions that are store keys. Logging settings ({@code -Dhangar.log.level=debug},
     * {@code -Dtinylog.*}) are not store keys: they become system properties here, before the first logger exists.
     */
    private Map<String, String> storeDefinitions() {
        Map<String, String> store = new LinkedHashMap<>();
        definitions.forEach((key, value) -> {
            if (key.startsWith("hangar.log.") || key.startsWith("tinylog.")) {
                System.setProperty(key, value);
            } else {
                store.put(key, value);
            }
        });
        return store;
    }

    /** The configured store directory. */
    public Path storePath() {
        return Path.of(config().get(StoreConfigKeys.STORE_PATH_ROOT_DIR));
    }

    /** Every provider in the boot layer and the plugins folder, found once. */
    public ProviderRegistry registry() {
        if (registry == null) {
            registry = ProviderRegistry.discover(pluginsDir());
        }
        return registry;
    }

    /**
     * The plugins folder: {@code --plugins}, which must be a directory, else {@code plugins/} of the running
     * image (next to {@code bin/}, i.e. under {@code java.home}) when it exists, else none.
     */
    public Path pluginsDir() {
        if (pluginsOption != null) {
            if (!Files.isDirectory(pluginsOption)) {
                throw new LauncherException("plugins folder " + pluginsOption + " is not a directory", null, EXIT_USAGE);
            }
            return pluginsOption;
        }
        String home = System.getProperty("java.home");
        Path imagePlugins = home == null ? null : Path.of(home, "plugins");
        return imagePlugins != null && Files.isDirectory(imagePlugins) ? imagePlugins : null;
    }

    public PrintWriter out() {
        return commandLine.getOut();
    }

    public PrintWriter err() {
        return commandLine.getErr();
    }

    public InputStream stdin() {
        return stdin;
    }

    public boolean verbose() {
        return verbose;
    }

    private int usageError(ParameterException ex, String[] args) {
        PrintWriter err = ex.getCommandLine().getErr();
        String hint = "";
        if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            hint = "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
        }
        err.println("error: " + ErrorMessages.oneLine(ex) + hint + " (see '"
                + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
        if (verbose) {
            ex.printStackTrace(err);
        }
        err.flush();
        return EXIT_USAGE;
    }

    private int failure(Exception ex) {
        PrintWriter err = err();
        err.println("error: " + ErrorMessages.oneLine(ex));
        if (verbose) {
            ex.printStackTrace(err);
        }
        err.flush();
        if (ex instanceof LauncherException le) {
            return le.exitCode();
        }
        return ex instanceof ConfigException ? EXIT_USAGE : 1;
    }
}
