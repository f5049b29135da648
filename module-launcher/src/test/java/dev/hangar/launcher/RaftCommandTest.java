package dev.hangar.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.launcher.fixture.TestConsensusProvider;
import dev.hangar.launcher.http.HttpApiServer;
import dev.hangar.launcher.http.HttpSettings;
import dev.hangar.launcher.json.MiniJsonReader;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.ha.ConsensusStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code store-launcher raft ...} against a served store of a test consensus group ({@code haService=test-consensus}):
 * the status table and JSON, the changes reaching the group, and one clear line for an unreachable node, a store of
 * no group, a bad peer and a wrong token.
 */
class RaftCommandTest {
    @TempDir
    Path dir;

    private DefaultMessageStore store;
    private HttpApiServer server;

    @BeforeAll
    static void keepLogFilesOutOfTheTemporaryStores() {
        System.setProperty(LoggingSetup.LOG_FILE_SWITCH, "false");
    }

    /** A started store with its HTTP API on an ephemeral port; returns its URL. */
    private String serve(Map<String, String> keys) throws IOException {
        StoreConfig.Builder b = StoreConfig.builder().set("storePathRootDir", dir.resolve("store").toString(), "test")
                .set("mappedFileSizeCommitLog", "1048576", "test");
        keys.forEach((k, v) -> b.set(k, v, "test"));
        StoreConfig config = b.build();
        store = new DefaultMessageStore(config);
        store.start();
        server = new HttpApiServer(store, HttpSettings.from(config, "127.0.0.1", 0, 2, 8));
        server.start();
        return server.url();
    }

    private TestConsensusProvider.Node node() {
        return TestConsensusProvider.node(dir.resolve("store"));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
        if (store != null) {
            store.shutdown();
        }
    }

    private static LauncherRun raft(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "raft";
        System.arraycopy(args, 0, all, 1, args.length);
        return LauncherRun.of(Map.of(), "", all);
    }

    private static ConsensusStatus leaderStatus(String url) {
        return new ConsensusStatus("n1", "LEADER", true, 12, "n1", url, 8192, 8300, List.of(
                new ConsensusStatus.Peer("n1", "127.0.0.1:9871", 8300, 0, 0),
                new ConsensusStatus.Peer("n2", "127.0.0.1:9872", 8192, 108, 40),
                new ConsensusStatus.Peer("n3", "127.0.0.1:9873", -1, -1, -1)), "");
    }

    @Test
    void statusPrintsRoleTermLeaderCommittedOffsetAndEachPeersProgress() throws IOException {
        String url = serve(Map.of("haService", "test-consensus"));
        node().set(leaderStatus(url));
        LauncherRun run = raft("status", "--url", url);
        assertEquals(0, run.code(), run.toString());
        List<String> lines = run.lines();
        assertEquals("node n1: LEADER, term 12", lines.get(0), run.toString());
        assertEquals("leader: n1 (" + url + ")", lines.get(1));
        assertEquals("committed offset: 8192, log end: 8300", lines.get(2));
        assertEquals(List.of("PEER", "ADDRESS", "MATCH", "OFFSET", "LAG", "BYTES", "LAST", "CONTACT"),
                List.of(lines.get(3).split("\\s+")));
        assertEquals(List.of("n2", "127.0.0.1:9872", "8192", "108", "40", "ms", "ago"), List.of(lines.get(5).split("\\s+")));
        assertEquals(List.of("n3", "127.0.0.1:9873", "-", "-", "-"), List.of(lines.get(6).split("\\s+")));

        LauncherRun json = raft("status", "--url", url, "--json");
        assertEquals(0, json.code(), json.toString());
        Map<String, Object> s = MiniJsonReader.object(json.out().strip());
        assertEquals("LEADER", s.get("role"));
        assertEquals(12L, s.get("term"));
        assertEquals(3, ((List<?>) s.get("peers")).size());
    }

    @Test
    void aFollowerNamesTheLeaderWhereThePeersProgressIsKnown() throws IOException {
        String url = serve(Map.of("haService", "test-consensus"));
        node().set(new ConsensusStatus("n2", "FOLLOWER", false, 12, "n1", "http://10.0.0.1:8080", 8192, 8192,
                List.of(new ConsensusStatus.Peer("n1", "10.0.0.1:9870", -1, -1, -1),
                        new ConsensusStatus.Peer("n2", "10.0.0.2:9870", -1, -1, -1)), ""));
        LauncherRun run = raft("status", "--url", url);
        assertEquals(0, run.code(), run.toString());
        List<String> lines = run.lines();
        assertEquals("node n2: FOLLOWER, term 12", lines.get(0), run.toString());
        assertEquals("leader: n1 (http://10.0.0.1:8080)", lines.get(1));
        assertEquals(List.of("n1", "(leader)", "10.0.0.1:9870", "-", "-", "-"), List.of(lines.get(4).split("\\s+")));
        assertEquals(List.of("n2", "(this", "node)", "10.0.0.2:9870", "-", "-", "-"),
                List.of(lines.get(5).split("\\s+")));
        assertEquals("each peer's progress is known on the leader: raft status --url http://10.0.0.1:8080",
                lines.get(6));
    }

    @Test
    void aFollowerWithoutALeaderSaysSoWithTheProblem() throws IOException {
        String url = serve(Map.of("haService", "test-consensus"));
        node().set(new ConsensusStatus("n2", "CANDIDATE", false, 13, "", "", 8192, 8192, List.of(
                new ConsensusStatus.Peer("n2", "127.0.0.1:9872", -1, -1, -1)), "no majority: 1 of 3 reachable"));
        LauncherRun run = raft("status", "--url", url);
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.lines().contains("leader: none"), run.toString());
        assertTrue(run.lines().contains("problem: no majority: 1 of 3 reachable"), run.toString());
    }

    @Test
    void changesReachTheGroupAndBadPeersAreRefused() throws IOException {
        String url = serve(Map.of("haService", "test-consensus", "httpToken", "t0k"));
        node().set(leaderStatus(url));
        assertEquals(0, raft("transfer-leader", "n2", "--url", url, "--token", "t0k").code());
        LauncherRun add = raft("add-peer", "n4@127.0.0.1:9874", "--url", url, "--token", "t0k");
        assertEquals(0, add.code(), add.toString());
        assertTrue(add.out().contains("add-peer n4@127.0.0.1:9874"), add.toString());
        assertEquals(0, raft("remove-peer", "n3", "--url", url, "--token", "t0k").code());
        assertEquals(List.of("transferLeader n2", "addPeer n4@127.0.0.1:9874", "removePeer n3"), node().calls);

        LauncherRun badFormat = raft("add-peer", "n5@nowhere", "--url", url, "--token", "t0k");
        assertEquals(1, badFormat.code(), badFormat.toString());
        assertTrue(badFormat.errorLines().get(0).contains("ID@HOST:PORT"), badFormat.toString());
        LauncherRun unknown = raft("remove-peer", "n9", "--url", url, "--token", "t0k");
        assertEquals(1, unknown.code(), unknown.toString());
        assertTrue(unknown.errorLines().get(0).contains("not a member"), unknown.toString());
        LauncherRun noToken = raft("transfer-leader", "n2", "--url", url);
        assertEquals(1, noToken.code(), noToken.toString());
        assertTrue(noToken.errorLines().get(0).contains("httpToken"), noToken.toString());
        assertEquals(3, node().calls.size(), "no refused command reached the group: " + node().calls);
    }

    @Test
    void aStoreOfNoGroupAndAnUnreachableNodeAreOneClearLine() throws IOException {
        String url = serve(Map.of());
        LauncherRun lone = raft("status", "--url", url);
        assertEquals(1, lone.code(), lone.toString());
        assertTrue(lone.errorLines().get(0).contains("not a raft node"), lone.toString());

        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        LauncherRun unreachable = raft("status", "--url", "http://127.0.0.1:" + closedPort);
        assertEquals(1, unreachable.code(), unreachable.toString());
        assertTrue(unreachable.errorLines().get(0).contains("cannot reach the node at http://127.0.0.1:" + closedPort),
                unreachable.toString());

        LauncherRun badUrl = raft("status", "--url", "127.0.0.1:8080");
        assertEquals(StoreLauncher.EXIT_USAGE, badUrl.code(), badUrl.toString());
        assertTrue(badUrl.errorLines().get(0).contains("--url must be http://HOST:PORT"), badUrl.toString());
    }
}
