package dev.hangar.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.hangar.compat.support.Await;
import dev.hangar.compat.support.CommitLogFiles;
import dev.hangar.compat.support.Dataset;
import dev.hangar.compat.support.Datasets;
import dev.hangar.compat.support.Findings;
import dev.hangar.compat.support.HangarSide;
import dev.hangar.compat.support.RocketSide;
import dev.hangar.compat.support.StoreGeometry;
import dev.hangar.compat.support.StoreSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hangar's read-only open (what {@code stat}, {@code get} and {@code query} use) reads a directory RocketMQ 4.9.8
 * wrote and shut down cleanly exactly as RocketMQ does, and leaves every file of it as it was.
 */
class RocketMqStoreReadOnlyTest {
    @TempDir
    Path dir;

    @Test
    void hangarReadsARocketMqStoreReadOnlyAndChangesNoFile() throws Exception {
        String host = StoreGeometry.IPV4_STORE_HOST;
        Dataset written = Datasets.mixed("rocketmq-read-only", "RO", 240, host);
        Findings findings = new Findings();
        List<CommitLogFiles.Entry> records;
        StoreSnapshot rocketRead;
        try (RocketSide rocket = RocketSide.open(dir, host)) {
            rocket.write(written);
            Await.dispatched(rocket, written.queueCounts());
            records = CommitLogFiles.records(dir);
            rocketRead = Findings.snapshot(rocket, written, records);
        }
        Map<String, String> before = files();
        try (HangarSide hangar = HangarSide.openReadOnly(dir, host)) {
            StoreSnapshot hangarRead = Findings.snapshot(hangar, written, records);
            findings.holds("Hangar reads the RocketMQ store read-only", hangarRead, written, records, true);
            findings.same("Hangar's read-only reads vs RocketMQ's reads", rocketRead, hangarRead);
        }
        findings.assertNone();
        assertEquals(before, files(), "a read-only open changes no file of the RocketMQ store");
    }

    /** Every file with its size, modification time and content hash. */
    private Map<String, String> files() throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                String hash = "";
                if (a.isRegularFile()) {
                    try {
                        hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
                    } catch (java.security.NoSuchAlgorithmException e) {
                        throw new AssertionError(e);
                    }
                }
                out.put(dir.relativize(p).toString(), a.size() + " " + a.lastModifiedTime().toMillis() + " " + hash);
            }
        }
        return out;
    }
}
