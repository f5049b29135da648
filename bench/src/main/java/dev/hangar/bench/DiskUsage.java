package dev.hangar.bench;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Blocks a directory takes on disk, by {@code du} (st_blocks): sparse and reserved files count as they are. */
final class DiskUsage {
    private DiskUsage() {
    }

    /** Bytes on disk under {@code dir}, or -1 when {@code du} is not available. */
    static long of(Path dir) {
        try {
            Process du = new ProcessBuilder("du", "-s", "-B1", dir.toString()).redirectErrorStream(true).start();
            String out = new String(du.getInputStream().readAllBytes()).trim();
            if (!du.waitFor(60, TimeUnit.SECONDS) || du.exitValue() != 0) {
                return -1;
            }
            return Long.parseLong(out.split("\\s+")[0]);
        } catch (Exception e) {
            return -1;
        }
    }
}
