package dev.hangar.launcher.command;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Turns SIGINT and SIGTERM into {@code System.exit(0)}. Without it the JVM still runs the shutdown hooks on these
 * signals but ends with status 128 + signal (130, 143), which a service manager reads as a failure; a server that
 * shut down cleanly on request should exit 0. When a handler cannot be installed (e.g. {@code -Xrs}), the JVM's
 * default stays and only the status differs. Stateless; installing twice is harmless.
 */
final class SignalExit {
    private static final Logger LOG = LoggerFactory.getLogger(SignalExit.class);

    private SignalExit() {
    }

    static void install() {
        for (String name : new String[] {"INT", "TERM"}) {
            try {
                Signal.handle(new Signal(name), signal -> {
                    LOG.info("SIG{} received", signal.getName());
                    System.exit(0);
                });
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                LOG.debug("cannot handle SIG{}: {}", name, e.toString());
            }
        }
    }
}
