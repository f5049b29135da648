package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code consume}, {@code groups} and {@code topics}, with every bad input refused without a change. */
class ConsumerCommandsTest {
    @TempDir
    Path dir;

    private LauncherRun run(String stdin, String... args) {
        List<String> all = new ArrayList<>(List.of("--store", dir.resolve("store").toString(),
                "-DmappedFileSizeCommitLog=1048576"));
        all.addAll(List.of(args));
        return LauncherRun.of(Map.of(), stdin, all.toArray(String[]::new));
    }

    private void put(int queue, String tag, String lines) {
        LauncherRun r = run(lines, "put", "--topic", "Orders", "--queue", Integer.toString(queue), "--tag", tag, "--lines");
        assertEquals(0, r.code(), r.toString());
    }

    @Test
    void consumePrintsAndCommitsSoTheNextRunGoesOn() {
        put(0, "created", "a\nb\nc\n");
        put(1, "paid", "d\n");
        LauncherRun first = run("", "consume", "--group", "billing", "--topic", "Orders", "--json");
        assertEquals(0, first.code(), first.toString());
        assertEquals(4, first.lines().size(), first.toString());
        LauncherRun again = run("", "consume", "--group", "billing", "--topic", "Orders");
        assertEquals(0, again.code(), again.toString());
        assertEquals(List.of(), again.lines(), "everything was committed");

        put(0, "created", "e\n");
        LauncherRun one = run("", "consume", "--group", "billing", "--topic", "Orders", "--queue", "0");
        assertEquals(1, one.lines().size(), one.toString());
        assertTrue(one.out().contains("e"), one.toString());

        LauncherRun groups = run("", "groups", "--json");
        assertEquals(0, groups.code(), groups.toString());
        assertEquals(1, groups.lines().size(), groups.toString());
        assertTrue(groups.out().contains("\"group\":\"billing\"") && groups.out().contains("\"lag\":0"), groups.out());
        LauncherRun stat = run("", "stat", "--json");
        assertTrue(stat.out().contains("\"consumerGroups\":[{\"group\":\"billing\",\"lag\":0"), stat.out());
        LauncherRun text = run("", "groups");
        assertTrue(text.out().contains("Orders queue 0: committed 4, max 4, lag 0"), text.out());
    }

    @Test
    void consumeWithATagPrintsOnlyMatchesAndCommitsPastTheRest() {
        put(0, "paid", "p1\np2\n");
        put(0, "created", "c1\n");
        put(0, "paid", "p3\n");
        LauncherRun created = run("", "consume", "--group", "g", "--topic", "Orders", "--tag", "created");
        assertEquals(1, created.lines().size(), created.toString());
        LauncherRun groups = run("", "groups");
        assertTrue(groups.out().contains("committed 4"), "past the filtered messages too: " + groups.out());
    }

    @Test
    void topicsListsUserTopicsOnly() {
        put(0, "t", "x\ny\n");
        assertEquals(0, run("", "consume", "--group", "g", "--topic", "Orders").code());
        LauncherRun topics = run("", "topics");
        assertEquals(0, topics.code(), topics.toString());
        assertTrue(topics.out().startsWith("Orders  1 queue, 2 messages"), topics.out());
        assertTrue(topics.out().contains("queue 0: offsets 0 to 2 (2 messages, stored "), topics.out());
        assertTrue(!topics.out().contains("RMQ_SYS"), "the offsets topic is internal: " + topics.out());
        LauncherRun json = run("", "topics", "--json");
        assertEquals(1, json.lines().size(), json.toString());
        assertTrue(json.out().contains("\"topic\":\"Orders\"") && json.out().contains("\"messages\":2"), json.out());
    }

    @Test
    void badInputIsRefusedAndCommitsNothing() {
        put(0, "t", "x\ny\n");
        String before = run("", "groups", "--json").out();
        assertRefused(2, "bad group", "consume", "--group", "a/b", "--topic", "Orders");
        assertRefused(2, "bad topic", "consume", "--group", "g", "--topic", "a b");
        assertRefused(2, "internal", "consume", "--group", "g", "--topic", "RMQ_SYS_HANGAR_CONSUMER_OFFSETS");
        assertRefused(1, "unknown topic Nope", "consume", "--group", "g", "--topic", "Nope");
        assertRefused(1, "no queue 5", "consume", "--group", "g", "--topic", "Orders", "--queue", "5");
        assertRefused(2, "0 or more", "consume", "--group", "g", "--topic", "Orders", "--queue", "-1");
        assertRefused(2, "empty tag", "consume", "--group", "g", "--topic", "Orders", "--tag", "a||");
        assertRefused(2, "--group", "consume", "--topic", "Orders");
        assertEquals(before, run("", "groups", "--json").out(), "nothing was committed");
    }

    private void assertRefused(int code, String named, String... args) {
        LauncherRun r = run("", args);
        assertEquals(code, r.code(), r.toString());
        assertTrue(r.err().contains(named), named + " in " + r);
        assertEquals(List.of(), r.lines(), "nothing printed");
    }
}
