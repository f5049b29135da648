package dev.hangar.spi.flush;

import java.nio.file.Path;
import java.util.Collection;

/**
 * Announces every completed force (fsync, msync) of a file the store writes, so a test can keep a copy of
 * exactly what a power cut would leave on the disk. Production never installs a listener: each force then costs
 * one volatile read more, next to a system call that takes microseconds to milliseconds.
 *
 * <p>Callers announce only after the force returned without error, and from the thread that forced.
 */
public final class ForceEvents {

    /** Receives completed forces; called synchronously by the forcing thread, so it must be quick and thread-safe. */
    public interface Listener {

        /** Bytes {@code [from, to)} of {@code file} (positions in the file) are on the disk, and so is its length. */
        void rangeForced(Path file, long from, long to);

        /** All of {@code file} as it is now, and its name in its directory, are on the disk. */
        void fileForced(Path file);

        /**
         * The length {@code file} had when it was forced is on the disk (its bytes are not claimed: a new file's
         * blocks read as zeros). Announced for a file created durably, see {@link DurableFiles}.
         */
        default void lengthForced(Path file, long length) {
        }

        /**
         * {@code directory} was forced: every name in {@code names}, listed before the force, is on the disk in it,
         * and a name not among them that was there before is durably gone. Only a listener sees the names: they are
         * listed only while one is installed.
         */
        default void directoryForced(Path directory, Collection<String> names) {
        }
    }

    private static volatile Listener listener;

    private ForceEvents() {
    }

    /** Installs the one listener; fails when another one is installed (two tests must not share it). */
    public static synchronized void install(Listener newListener) {
        if (listener != null) {
            throw new IllegalStateException("a force listener is already installed: " + listener);
        }
        listener = newListener;
    }

    /** Removes {@code installed} when it is the current listener. */
    public static synchronized void uninstall(Listener installed) {
        if (listener == installed) {
            listener = null;
        }
    }

    public static void rangeForced(Path file, long from, long to) {
        Listener current = listener;
        if (current != null) {
            current.rangeForced(file, from, to);
        }
    }

    /** True while a listener is installed: {@link DurableFiles} lists a directory's names only then. */
    public static boolean listening() {
        return listener != null;
    }

    public static void lengthForced(Path file, long length) {
        Listener current = listener;
        if (current != null) {
            current.lengthForced(file, length);
        }
    }

    public static void directoryForced(Path directory, Collection<String> names) {
        Listener current = listener;
        if (current != null) {
            current.directoryForced(directory, names);
        }
    }

    public static void fileForced(Path file) {
        Listener current = listener;
        if (current != null) {
            current.fileForced(file);
        }
    }
}
