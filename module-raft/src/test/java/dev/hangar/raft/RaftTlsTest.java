package dev.hangar.raft;

import static dev.hangar.raft.RaftStores.await;
import static dev.hangar.raft.RaftStores.message;
import static dev.hangar.raft.RaftStores.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.store.PutMessageResult;
import dev.hangar.spi.store.PutMessageStatus;
import dev.hangar.store.DefaultMessageStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS between raft peers ({@code raft.tls.*}): a group with certificates replicates as a plaintext one does,
 * a node the others do not trust, or one that talks plaintext, never joins, and bad files stop the start.
 */
class RaftTlsTest {
    @TempDir
    static Path certs;
    static List<RaftTlsCertificates.NodeFiles> members = new ArrayList<>();
    static RaftTlsCertificates.NodeFiles stranger;
    /** The certificates of n0, n1, n2: what every member trusts. */
    static Path groupTrust;

    @TempDir
    Path dir;

    @BeforeAll
    static void makeCertificates() throws Exception {
        for (int i = 0; i < 3; i++) {
            members.add(RaftTlsCertificates.generate(certs, "n" + i));
        }
        stranger = RaftTlsCertificates.generate(certs, "stranger");
        groupTrust = RaftTlsCertificates.trust(certs.resolve("group-trust.pem"), members);
    }

    @Test
    void threeStoresWithMutualTlsElectALeaderAndHoldIdenticalCommitLogs() throws Exception {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                stores.add(RaftStores.start(dir.resolve("n" + i), peers, "n" + i,
                        RaftTlsCertificates.settings(members.get(i), groupTrust)));
            }
            DefaultMessageStore leader = RaftStores.leader(stores);
            int count = 210; // spans three 64 KiB files
            for (int i = 0; i < count; i++) {
                PutMessageResult r = leader.putMessage(message("Secure", i % 3, "tls-" + i + "-" + "z".repeat(250)));
                assertEquals(PutMessageStatus.PUT_OK, r.status(), () -> "put: " + r);
            }
            long end = leader.getMaxPhyOffset();
            for (DefaultMessageStore s : stores) {
                await("every node committed " + end, () -> status(s).committedOffset() == end);
                await("every node dispatched its queues", () -> s.getMaxOffsetInQueue("Secure", 0) == count / 3);
            }
            byte[] leaderBytes = RaftStores.commitLogBytes(dir.resolve(status(leader).selfId()), end);
            assertEquals(end, leaderBytes.length);
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(leaderBytes, RaftStores.commitLogBytes(dir.resolve("n" + i), end),
                        "the CommitLog of n" + i + " differs from the leader's");
            }

            // the admin client (leadership transfer, membership changes) speaks TLS too
            String next = status(stores.get(0)).leaderId().equals("n1") ? "n2" : "n1";
            stores.get(0).consensus().orElseThrow().transferLeader(next).join();
            await("the leadership moved to " + next, () -> status(stores.get(Integer.parseInt(next.substring(1))))
                    .leaderReady());

            // the Raft port itself: TLS that demands the caller's certificate (mutual), and shows the node's own
            int port = Integer.parseInt(peers.split(",")[0].substring(peers.split(",")[0].lastIndexOf(':') + 1));
            Certificate presented = handshake(port, members.get(1));
            assertEquals(readCertificate(members.get(0).certificate()), presented,
                    "n0's Raft port presents n0's certificate");
            assertThrows(IOException.class, () -> handshake(port, null),
                    "a caller without a certificate is refused by the Raft port");
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    @Test
    void aNodeWhoseCertificateTheOthersDoNotTrustNeverJoins() throws Exception {
        // the stranger trusts the members, the members do not trust it
        Path strangerTrust = RaftTlsCertificates.trust(dir.resolve("stranger-trust.pem"),
                List.of(members.get(0), members.get(1), stranger));
        assertOnlyTheTrustedPairReplicates(RaftTlsCertificates.settings(stranger, strangerTrust));
    }

    @Test
    void aPlaintextNodeCannotTalkToTlsNodes() throws Exception {
        assertOnlyTheTrustedPairReplicates();
    }

    /** n0 and n1 with mutual TLS; n2 started with {@code n2Settings}, which must keep it out of the group. */
    private void assertOnlyTheTrustedPairReplicates(String... n2Settings) throws Exception {
        String peers = RaftStores.peers(3);
        List<DefaultMessageStore> stores = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                stores.add(RaftStores.start(dir.resolve("n" + i), peers, "n" + i,
                        RaftTlsCertificates.settings(members.get(i), groupTrust)));
            }
            DefaultMessageStore outsider = RaftStores.start(dir.resolve("n2"), peers, "n2", n2Settings);
            stores.add(outsider);
            DefaultMessageStore leader = RaftStores.leader(stores.subList(0, 2));
            for (int i = 0; i < 50; i++) {
                PutMessageResult r = leader.putMessage(message("Secure", 0, "pair-" + i));
                assertEquals(PutMessageStatus.PUT_OK, r.status(), () -> "put: " + r);
            }
            long end = leader.getMaxPhyOffset();
            for (DefaultMessageStore s : stores.subList(0, 2)) {
                await("both trusted nodes committed " + end, () -> status(s).committedOffset() == end);
            }
            // a negative cannot be awaited, so it is watched over events: at least 30 more entries the leader
            // sent to every member, the outsider included, and at least 3 s (several heartbeats at 300–600 ms
            // election timeouts); a slow machine makes the rounds slower, not fewer
            long watchUntil = System.currentTimeMillis() + 3_000;
            for (int round = 0; round < 30 || System.currentTimeMillis() < watchUntil; round++) {
                PutMessageResult r = leader.putMessage(message("Secure", 0, "watch-" + round));
                assertEquals(PutMessageStatus.PUT_OK, r.status(), () -> "put: " + r);
                long now = leader.getMaxPhyOffset();
                for (DefaultMessageStore s : stores.subList(0, 2)) {
                    await("both trusted nodes committed " + now, () -> status(s).committedOffset() == now);
                }
                assertEquals(0, outsider.getMaxPhyOffset(), "the outsider received CommitLog bytes");
                assertEquals(0, status(outsider).committedOffset(), "the outsider saw a commit");
                assertNotEquals("LEADER", status(outsider).role(), "the outsider won an election");
            }
            long outsiderMatch = status(leader).peers().stream().filter(p -> p.id().equals("n2")).findFirst()
                    .orElseThrow().matchOffset();
            assertTrue(outsiderMatch <= 0, "the leader counts the outsider as holding " + outsiderMatch + " bytes");
        } finally {
            RaftStores.closeAll(stores);
        }
    }

    @Test
    void aMissingKeyFileIsRefusedAtStartNamingIt() {
        Path missing = dir.resolve("nowhere").resolve("n0-key.pem");
        String[] settings = {"raft.tls.certificate", members.get(0).certificate().toString(),
                "raft.tls.privateKey", missing.toString(), "raft.tls.trustedCertificates", groupTrust.toString()};
        String message = startFailure(settings);
        assertTrue(message.contains(missing.toString()) && message.contains("raft.tls.privateKey"),
                "the refusal names the key and the file: " + message);
        assertTrue(message.contains("does not exist"), message);
    }

    @Test
    void aFileThatIsNotPemOrAKeyOfAnotherCertificateIsRefusedAtStartNamingIt() throws IOException {
        Path garbage = Files.writeString(dir.resolve("trust.pem"), "this is not a certificate\n");
        String certMessage = startFailure(RaftTlsCertificates.settings(members.get(0), garbage));
        assertTrue(certMessage.contains(garbage.toString()) && certMessage.contains("raft.tls.trustedCertificates"),
                certMessage);

        // a certificate where the key belongs
        String[] swapped = {"raft.tls.certificate", members.get(0).certificate().toString(),
                "raft.tls.privateKey", members.get(0).certificate().toString(),
                "raft.tls.trustedCertificates", groupTrust.toString()};
        String keyMessage = startFailure(swapped);
        assertTrue(keyMessage.contains(members.get(0).certificate().toString())
                && keyMessage.contains("raft.tls.privateKey"), keyMessage);

        // n1's key with n0's certificate: both parse, but every handshake would fail
        String[] mismatched = {"raft.tls.certificate", members.get(0).certificate().toString(),
                "raft.tls.privateKey", members.get(1).privateKey().toString(),
                "raft.tls.trustedCertificates", groupTrust.toString()};
        String pairMessage = startFailure(mismatched);
        assertTrue(pairMessage.contains(members.get(1).privateKey().toString())
                && pairMessage.contains("is not the key of"), pairMessage);
    }

    @Test
    void settingSomeButNotAllTlsKeysNamesTheMissingOnes() {
        ConfigException e = assertThrows(ConfigException.class, () -> RaftSettings.from(RaftStores.config(dir,
                RaftStores.peers(3), "n0", "raft.tls.certificate", members.get(0).certificate().toString())));
        assertTrue(e.getMessage().contains("raft.tls.privateKey") && e.getMessage().contains(
                "raft.tls.trustedCertificates"), e.getMessage());
        assertTrue(!e.getMessage().contains("missing: raft.tls.certificate"), e.getMessage());

        RaftSettings plain = RaftSettings.from(RaftStores.config(dir, RaftStores.peers(3), "n0"));
        assertTrue(plain.tls().isEmpty(), "no raft.tls.* key: plaintext");
    }

    /** Starts n0 of a group with {@code settings}, expecting the start to fail; its messages, causes included. */
    private String startFailure(String[] settings) {
        DefaultMessageStore store = new DefaultMessageStore(RaftStores.config(dir.resolve("n0"), RaftStores.peers(3),
                "n0", settings));
        try {
            RuntimeException e = assertThrows(RuntimeException.class, store::start, "the start is refused");
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                all.append(t.getMessage()).append(" | ");
            }
            return all.toString();
        } finally {
            try {
                store.close();
            } catch (RuntimeException ignored) {
                // it never opened
            }
        }
    }

    /** A TLS handshake with the Raft port on loopback as {@code client} (null: without a certificate). */
    private static Certificate handshake(int port, RaftTlsCertificates.NodeFiles client) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("n0", readCertificate(members.get(0).certificate()));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        if (client != null) {
            String pem = Files.readString(client.privateKey(), StandardCharsets.US_ASCII);
            byte[] der = java.util.Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
            keys.setKeyEntry("client", java.security.KeyFactory.getInstance("EC").generatePrivate(
                    new java.security.spec.PKCS8EncodedKeySpec(der)), new char[0],
                    new Certificate[] {readCertificate(client.certificate())});
        }
        kmf.init(keys, new char[0]);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            // under TLS 1.3 the server judges the client's certificate after the client finished: speak HTTP/2 and
            // read, so a refusal shows up here
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS frame
            socket.getOutputStream().flush();
            byte[] frameHeader = socket.getInputStream().readNBytes(9);
            if (frameHeader.length < 9) {
                throw new IOException("the Raft port closed the connection");
            }
            return socket.getSession().getPeerCertificates()[0];
        }
    }

    private static Certificate readCertificate(Path pem) throws Exception {
        try (var in = Files.newInputStream(pem)) {
            return CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }
}
