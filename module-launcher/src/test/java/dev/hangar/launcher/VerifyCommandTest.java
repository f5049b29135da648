package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.json.MiniJsonReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify} and {@code clean} on real store directories. */
class VerifyCommandTest {
    private static final String BODY = "a body verify will check";

    @TempDir
    Path dir;

    @BeforeAll
    static void keepLogFilesOutOfTheTemporaryStores() {
        System.setProperty(LoggingSetup.LOG_FILE_SWITCH, "false");
    }

    private LauncherRun onStore(String... command) {
        List<String> args = new java.util.ArrayList<>(List.of("--store", dir.resolve("store").toString(),
                "-DmappedFileSizeCommitLog=1048576"));
        args.addAll(List.of(command));
        return LauncherRun.of(Map.of(), "", args.toArray(String[]::new));
    }

    private void writeAStore() {
        for (int i = 0; i < 3; i++) {
            LauncherRun put = onStore("put", "--topic", "V", "--queue", String.valueOf(i), "--key", "k" + i, "--body", BODY + i);
            assertEquals(0, put.code(), put.toString());
        }
    }

    /** Every file under the store with its size and modification time. */
    private Map<String, String> listing() throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir.resolve("store"))) {
            for (Path p : all.toList()) {
                files.put(dir.relativize(p).toString(), Files.size(p) + "@" + Files.getLastModifiedTime(p).toMillis());
            }
        }
        return files;
    }

    @Test
    void aHealthyStoreExitsZeroAndVerifyTouchesNothing() throws Exception {
        writeAStore();
        Map<String, String> before = listing();

        LauncherRun text = onStore("verify");
        assertEquals(0, text.code(), text.toString());
        assertTrue(text.lines().get(text.lines().size() - 1).startsWith("healthy: "), text.toString());

        LauncherRun json = onStore("verify", "--json");
        assertEquals(0, json.code(), json.toString());
        assertEquals(1, json.lines().size(), json.toString());
        Map<String, Object> report = MiniJsonReader.object(json.lines().get(0));
        assertEquals(Boolean.TRUE, report.get("healthy"));
        assertTrue(report.get("problems") instanceof List<?>);
        assertEquals(3L, ((Map<?, ?>) report.get("counts")).get("records"), json.toString());

        assertEquals(before, listing(), "verify changed no file, created none (no lock, no log, no recovery)");
        assertFalse(Files.exists(dir.resolve("store").resolve("abort")));
    }

    @Test
    void aFlippedBodyByteIsAnErrorNamingTheFileAndExitsOne() throws Exception {
        writeAStore();
        Path commitLog = dir.resolve("store").resolve("commitlog").resolve("00000000000000000000");
        byte[] content = Files.readAllBytes(commitLog);
        int at = indexOf(content, (BODY + "1").getBytes(StandardCharsets.UTF_8));
        assertTrue(at > 0, "the second body is in the first file");
        content[at + 3] ^= 0x20;
        Files.write(commitLog, content);

        LauncherRun text = onStore("verify");
        assertEquals(1, text.code(), text.toString());
        assertTrue(text.out().contains("ERROR   commitlog/00000000000000000000 @"), text.toString());
        assertTrue(text.lines().get(text.lines().size() - 1).startsWith("NOT HEALTHY: "), text.toString());

        LauncherRun json = onStore("verify", "--json");
        assertEquals(1, json.code(), json.toString());
        Map<String, Object> report = MiniJsonReader.object(json.lines().get(0));
        assertEquals(Boolean.FALSE, report.get("healthy"));
        List<?> problems = (List<?>) report.get("problems");
        assertTrue(problems.stream().map(p -> (Map<?, ?>) p).anyMatch(p -> "ERROR".equals(p.get("severity"))
                && "commitlog/00000000000000000000".equals(p.get("file")) && ((Long) p.get("offset")) >= 0), json.toString());
    }

    @Test
    void aMissingStoreIsAProblemAndIsNotCreated() {
        LauncherRun run = onStore("verify");
        assertEquals(1, run.code(), run.toString());
        assertFalse(Files.exists(dir.resolve("store")));
    }

    @Test
    void cleanKeepsFilesYoungerThanTheReservedTime() {
        writeAStore();
        LauncherRun clean = onStore("clean", "--json");
        assertEquals(0, clean.code(), clean.toString());
        Map<String, Object> result = MiniJsonReader.object(clean.lines().get(0));
        assertEquals(0L, result.get("deleted"));
        assertEquals(0L, result.get("minOffsetAfter"));
        assertEquals(3, onStore("get", "--topic", "V", "--queue", "0").lines().size()
                + onStore("get", "--topic", "V", "--queue", "1").lines().size()
                + onStore("get", "--topic", "V", "--queue", "2").lines().size());
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
