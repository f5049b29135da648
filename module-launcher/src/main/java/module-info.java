/**
 * {@code store-launcher}: layers the configuration (defaults, properties file, {@code HANGAR_*} environment,
 * {@code -D} flags), assembles the store from the providers found at run time, and offers the operator's
 * commands. The provider modules (mmap, flush, dispatch, plugins) and the logging backend are
 * not required here: they are found by {@link java.util.ServiceLoader} through {@code dev.hangar.store}.
 */
module dev.hangar.launcher {
    requires dev.hangar.store;
    requires info.picocli;
    requires jdk.httpserver;
    // bench: the put threads' CPU time and the JIT's compilation time (its warm-up ends when the JIT settles)
    requires java.management;
    // sun.misc.Signal: serve exits 0 on SIGINT/SIGTERM after its clean shutdown
    requires jdk.unsupported;
    requires org.slf4j;

    // picocli sets the annotated option fields and creates the command objects reflectively
    opens dev.hangar.launcher to info.picocli;
    opens dev.hangar.launcher.command to info.picocli;
    // exports nothing: it is an application, run by its main class; nothing may compile against it
}
