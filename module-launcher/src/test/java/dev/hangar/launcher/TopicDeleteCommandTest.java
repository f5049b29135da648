package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code topics --delete T --confirm T}, and every bad input refused without a change. */
class TopicDeleteCommandTest {
    @TempDir
    Path dir;

    private LauncherRun run(String stdin, String... args) {
        List<String> all = new ArrayList<>(List.of("--store", dir.resolve("store").toString(),
                "-DmappedFileSizeCommitLog=1048576"));
        all.addAll(List.of(args));
        return LauncherRun.of(Map.of(), stdin, all.toArray(String[]::new));
    }

    private void put(String topic, int queue, String lines) {
        LauncherRun r = run(lines, "put", "--topic", topic, "--queue", Integer.toString(queue), "--lines");
        assertEquals(0, r.code(), r.toString());
    }

    @Test
    void aConfirmedDeletionRemovesTheTopicAndNewPutsStartAtZero() {
        put("Orders", 0, "a\nb\nc\n");
        put("Orders", 1, "d\n");
        put("Kept", 0, "k\n");
        LauncherRun deleted = run("", "topics", "--delete", "Orders", "--confirm", "Orders", "--json");
        assertEquals(0, deleted.code(), deleted.toString());
        assertEquals(List.of("{\"topic\":\"Orders\",\"deleted\":true,\"queues\":2}"), deleted.lines());
        assertFalse(Files.exists(dir.resolve("store/consumequeue/Orders")), "its ConsumeQueue directory");
        LauncherRun listed = run("", "topics");
        assertFalse(listed.out().contains("Orders"), listed.toString());
        assertTrue(listed.out().contains("Kept"), listed.toString());

        put("Orders", 0, "new\n");
        LauncherRun get = run("", "get", "--topic", "Orders", "--queue", "0", "--offset", "0", "--json");
        assertEquals(0, get.code(), get.toString());
        assertTrue(get.out().contains("\"queueOffset\":0") && get.out().contains("\"bodyBase64\":\"bmV3\""), get.toString());
    }

    @Test
    void badInputIsRefusedAndDeletesNothing() {
        put("Orders", 0, "a\nb\n");
        String before = run("", "topics", "--json").out();
        assertRefused(2, "--confirm Orders", "topics", "--delete", "Orders");
        assertRefused(2, "--confirm Orders", "topics", "--delete", "Orders", "--confirm", "Other");
        assertRefused(2, "goes with --delete", "topics", "--confirm", "Orders");
        assertRefused(2, "store's own", "topics", "--delete", "SCHEDULE_TOPIC_XXXX", "--confirm", "SCHEDULE_TOPIC_XXXX");
        assertRefused(2, "store's own", "topics", "--delete", "RMQ_SYS_HANGAR_CONSUMER_OFFSETS", "--confirm",
                "RMQ_SYS_HANGAR_CONSUMER_OFFSETS");
        assertRefused(2, "bad topic", "topics", "--delete", "a/b", "--confirm", "a/b");
        assertRefused(1, "unknown topic Nope", "topics", "--delete", "Nope", "--confirm", "Nope");
        assertEquals(before, run("", "topics", "--json").out(), "nothing was deleted");
    }

    private void assertRefused(int code, String named, String... args) {
        LauncherRun r = run("", args);
        assertEquals(code, r.code(), r.toString());
        assertTrue(r.err().contains(named), named + " in " + r);
        assertEquals(List.of(), r.lines(), "nothing printed");
    }
}
