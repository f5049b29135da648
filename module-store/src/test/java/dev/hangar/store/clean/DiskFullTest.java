package dev.hangar.store.clean;

import dev.hangar.store.TestInternals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.message.StoredMessage;
import dev.hangar.spi.store.GetMessageResult;
import dev.hangar.spi.store.GetMessageStatus;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import dev.hangar.store.TestStores;
import dev.hangar.store.service.RunningFlags;
import dev.hangar.store.verify.StoreVerifier;
import dev.hangar.store.verify.VerifyReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A full disk stops puts with a reason, keeps everything readable, and the store resumes once space is freed. */
class DiskFullTest {
    @TempDir
    Path dir;

    @Test
    void aFullDiskRefusesPutsKeepsReadsAndTheStoreResumesByItselfWhenSpaceIsFreed() {
        try (DefaultMessageStore store = TestStores.started(dir, "dispatchers", "consume-queue")) {
            for (int i = 0; i < 10; i++) {
                assertTrue(store.putMessage(TestStores.message("Full", 0, "before " + i)).isOk());
            }
            DiskSpaceMonitor monitor = TestInternals.retention(store).diskMonitor();
            monitor.useProbe(DiskUsageProbe.fixedRatio(0.95));
            monitor.check();
            assertTrue(TestInternals.runningFlags(store).names().contains("DISK_FULL"));
            assertEquals(RunningFlags.DISK_FULL, TestInternals.runningFlags(store).bits() & RunningFlags.DISK_FULL);

            PutMessageResult refused = store.putMessage(TestStores.message("Full", 0, "refused"));
            assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, refused.status());
            assertTrue(refused.reason().contains("disk full") && refused.reason().contains("95.0%"), refused.reason());
            TestStores.await("dispatched", () -> store.getMaxOffsetInQueue("Full", 0) == 10);
            GetMessageResult read = store.getMessage("g", "Full", 0, 0, 10, null);
            assertEquals(GetMessageStatus.FOUND, read.status());
            assertEquals(10, read.messages().size(), "what was written stays readable");

            monitor.useProbe(DiskUsageProbe.fixedRatio(0.50));
            TestStores.await("the periodic check clears DISK_FULL", () -> TestInternals.runningFlags(store).isWritable());
            PutMessageResult after = store.putMessage(TestStores.message("Full", 0, "after"));
            assertTrue(after.isOk(), after.toString());
            assertEquals(10, after.appendResult().logicsOffset(), "the refused put took no queue offset");
        }
    }

    /** Mounts a 2 MiB tmpfs on {@code mountPoint}; null when it worked, else why not. */
    private static String mountTmpfs(Path mountPoint) {
        try {
            Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint.toString())
                    .redirectErrorStream(true).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "mount did not finish";
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.exitValue() == 0 ? null : "mount exited " + p.exitValue() + ": " + out;
        } catch (IOException e) {
            return e.toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static void unmount(Path mountPoint) throws Exception {
        Process p = new ProcessBuilder("umount", mountPoint.toString()).redirectErrorStream(true).start();
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            new ProcessBuilder("umount", "-l", mountPoint.toString()).start().waitFor(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void onARealTwoMegabyteFileSystemPutsStopBeforeItIsFullAndResumeWhenAFileIsDeleted() throws Exception {
        Path mount = Files.createDirectories(dir.resolve("tmpfs"));
        String failure = mountTmpfs(mount);
        Assumptions.assumeTrue(failure == null, "cannot mount tmpfs here: " + failure);
        try {
            Path filler = mount.resolve("filler");
            Files.write(filler, new byte[512 * 1024]);
            Path root = mount.resolve("store");
            String[] settings = {"mappedFileSizeCommitLog", Integer.toString(256 * 1024), "dispatchers", "consume-queue",
                    "mappedFileSizeConsumeQueue", "20000", "cleanResourceInterval", "3600000"};
            List<Long> offsets = new ArrayList<>();
            byte[] body = new byte[1000];
            PutMessageResult refused = null;
            try (DefaultMessageStore store = TestStores.started(root, settings)) {
                for (int i = 0; i < 5000 && refused == null; i++) {
                    body[0] = (byte) i;
                    body[1] = (byte) (i >> 8);
                    PutMessageResult r = store.putMessage(new dev.hangar.spi.message.Message("Tmpfs", body.clone()));
                    if (r.isOk()) {
                        offsets.add(r.appendResult().wroteOffset());
                    } else {
                        refused = r;
                    }
                }
                assertNotNull(refused, "the 2 MiB file system filled up");
                assertEquals(PutMessageStatus.SERVICE_NOT_AVAILABLE, refused.status(), refused.toString());
                assertTrue(refused.reason().contains("disk full"), refused.reason());
                assertTrue(offsets.size() > 500, "about 1.3 MiB of messages fit first: " + offsets.size());
                for (int i = 0; i < offsets.size(); i++) {
                    StoredMessage m = store.lookMessageByOffset(offsets.get(i));
                    assertNotNull(m, "message " + i);
                    assertEquals((byte) i, m.body()[0]);
                    assertEquals((byte) (i >> 8), m.body()[1]);
                }
                assertFalse(store.putMessage(new dev.hangar.spi.message.Message("Tmpfs", body)).isOk());

                Files.delete(filler);
                TestStores.await("writable once the filler is gone", () -> TestInternals.runningFlags(store).isWritable());
                PutMessageResult after = store.putMessage(new dev.hangar.spi.message.Message("Tmpfs", body));
                assertTrue(after.isOk(), after.toString());
                offsets.add(after.appendResult().wroteOffset());
                TestStores.await("dispatched", () -> store.getMaxOffsetInQueue("Tmpfs", 0) == offsets.size());
            }
            StoreConfig config = TestStores.config(root, settings);
            VerifyReport report = StoreVerifier.verify(root, config);
            assertTrue(report.healthy(), report.toString());
            assertEquals(offsets.size(), report.records());
            assertEquals(offsets.size(), report.units());

            Path copy = Files.createDirectories(dir.resolve("copy"));
            copyTree(root, copy);
            try (DefaultMessageStore reopened = TestStores.started(copy, settings)) {
                assertEquals(offsets.size(), reopened.getMaxOffsetInQueue("Tmpfs", 0));
                assertArrayEquals(body, reopened.lookMessageByOffset(offsets.get(offsets.size() - 1)).body());
            }
        } finally {
            unmount(mount);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                if (p.getFileName().toString().equals("lock")) {
                    continue;
                }
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
