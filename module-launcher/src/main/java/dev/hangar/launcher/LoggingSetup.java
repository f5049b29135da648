package dev.hangar.launcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Points the logging backend (tinylog, bound to SLF4J at run time) at its configuration before the first
 * logger exists. The launcher never names tinylog in code: everything goes through system properties that
 * tinylog reads when it starts.
 *
 * <ul>
 *   <li>In the jlink'd image the configuration is {@code conf/tinylog.properties} under {@code java.home}.
 *       Without it (e.g. {@code java -p modules}) the same settings are given as {@code tinylog.*} system
 *       properties, so logs never reach stdout, where the JSON goes.</li>
 *   <li>The console level is {@code hangar.log.level}: debug with {@code --verbose}, else the command's
 *       default; a {@code -Dhangar.log.level=...} JVM option (e.g. in {@code JDK_JAVA_OPTIONS}) wins.</li>
 *   <li>Commands that open a store also log into a rolling file under {@code <store>/logs/}, unless
 *       {@code -Dhangar.log.file=false}.</li>
 * </ul>
 * Must run before the first {@code LoggerFactory.getLogger}; later calls have no effect on a backend that is
 * already configured. Not thread-safe: called from the main thread at start.
 */
public final class LoggingSetup {
    /** The system property holding the console level used by the configuration. */
    public static final String LEVEL_PROPERTY = "hangar.log.level";
    /** The system property holding the folder of the store's log file. */
    public static final String LOG_DIR_PROPERTY = "hangar.log.dir";
    /** Set to "false" to keep commands from writing a log file into the store. */
    public static final String LOG_FILE_SWITCH = "hangar.log.file";

    private static final String TINYLOG = "tinylog.";

    private LoggingSetup() {
    }

    /**
     * @param verbose      {@code --verbose} was given
     * @param defaultLevel the console level when neither {@code --verbose} nor the JVM option says otherwise
     * @param logDir       the folder of the store's log file ({@code <store>/logs/}), or null for none
     */
    public static void configure(boolean verbose, String defaultLevel, Path logDir) {
        Path conf = imageConfiguration();
        boolean useFile = System.getProperty(TINYLOG + "configuration") == null && conf != null;
        if (useFile) {
            System.setProperty(TINYLOG + "configuration", conf.toString());
        } else if (System.getProperty(TINYLOG + "configuration") == null) {
            consoleDefaults().forEach(LoggingSetup::setIfAbsent);
        }
        if (verbose) {
            System.setProperty(LEVEL_PROPERTY, "debug");
        } else {
            setIfAbsent(LEVEL_PROPERTY, defaultLevel);
        }
        if (logDir != null && !"false".equalsIgnoreCase(System.getProperty(LOG_FILE_SWITCH))
                && System.getProperty(TINYLOG + "writerFile") == null) {
            System.setProperty(LOG_DIR_PROPERTY, logDir.toAbsolutePath().normalize().toString());
            if (!useFile) {
                fileDefaults().forEach(LoggingSetup::setIfAbsent);
            }
            System.setProperty(TINYLOG + "writerFile", "rolling file");
        }
    }

    /**
     * Keeps the backend's writers open until the JVM ends. {@code serve} logs its shutdown from its own shutdown
     * hook, which would otherwise race the backend's hook closing the log file ("Stream Closed"). Safe because the
     * writers are synchronous and unbuffered (no writing thread, no {@code buffered} in the configuration): every
     * entry is on disk when the call returns. Call before {@link #configure}.
     */
    public static void keepWritersOpenAtExit() {
        setIfAbsent(TINYLOG + "autoshutdown", "false");
    }

    /** {@code conf/tinylog.properties} of the running image, or null. */
    static Path imageConfiguration() {
        String home = System.getProperty("java.home");
        if (home == null) {
            return null;
        }
        Path conf = Path.of(home, "conf", "tinylog.properties");
        return Files.isRegularFile(conf) ? conf : null;
    }

    /** The console writer of {@code conf/tinylog.properties}, for runs outside the image. */
    private static Map<String, String> consoleDefaults() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(TINYLOG + "writer", "console");
        p.put(TINYLOG + "writer.stream", "err");
        p.put(TINYLOG + "writer.level", "#{" + LEVEL_PROPERTY + ":info}");
        p.put(TINYLOG + "writer.format", "{date: HH:mm:ss.SSS} {level|min-size=5} [{thread}] {class-name}: {message}");
        return p;
    }

    /** The file writer settings of {@code conf/tinylog.properties}, for runs outside the image. */
    private static Map<String, String> fileDefaults() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(TINYLOG + "writerFile.level", "info");
        p.put(TINYLOG + "writerFile.file", "#{" + LOG_DIR_PROPERTY + ":logs}/hangar-{count}.log");
        p.put(TINYLOG + "writerFile.latest", "#{" + LOG_DIR_PROPERTY + ":logs}/hangar.log");
        p.put(TINYLOG + "writerFile.policies", "size: 32mb");
        p.put(TINYLOG + "writerFile.backups", "10");
        p.put(TINYLOG + "writerFile.format", "{date: yyyy-MM-dd HH:mm:ss.SSS} {level} [{thread}] {class}: {message}");
        return p;
    }

    private static void setIfAbsent(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }
}
