package dev.hangar.raft;

import dev.hangar.spi.config.ConfigException;
import dev.hangar.spi.config.ConfigKey;
import dev.hangar.spi.config.StoreConfig;
import dev.hangar.spi.config.StoreConfigKeys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code raft.*} keys of the provider, read and checked once.
 *
 * <p>Election timeouts: Ratis' defaults (150–300 ms) elect again on every GC pause or page-fault storm of a JVM
 * that maps gigabytes; Ozone runs 5 s. We default to 700–900 ms. A follower notices a dead leader after its current
 * sleep of one timeout ends plus one more whole timeout (Ratis' follower timer sleeps a timeout, then checks), so
 * the range's width adds little randomness and its level sets the failover time: with 1–2 s the kill -9 failover
 * took 2.0–2.3 s (median), with 1.0–1.2 s 2.06 s, with 0.7–0.9 s 1.34 s (RaftBench, 5 rounds each,
 * docs/PERFORMANCE.md 53). The least pause that can cause an election is the minimum: the longest pause the nodes'
 * JvmPauseMonitor saw on a 2-core host running six JVMs and two builds was 0.59 s, and it did (with 0.5–1 s).
 *
 * @param peers           every member, in configuration order
 * @param selfId          this node's id (one of {@code peers})
 * @param dir             Ratis' own directory (its log of range headers, its metadata, our tiny snapshots)
 * @param electionMinMs   the least time a follower waits for its leader before it stands for election
 * @param electionMaxMs   the most
 * @param ackAll          true: a put waits for every member, false: for a majority
 * @param httpPeers       each member's HTTP address ({@code http://host:port}) for redirects, by id; may be empty
 * @param putTimeoutMs    how long a put waits for its range to be committed (syncFlushTimeout)
 * @param tls             the PEM files for mutual TLS between peers; empty = plaintext
 * @param listen          where this node's Raft server binds: its own address in {@code peers} unless
 *                        {@code raft.listen} says otherwise (behind NAT, in a container, or behind a relay)
 */
public record RaftSettings(List<Peer> peers, String selfId, Path dir, int electionMinMs, int electionMaxMs,
                           boolean ackAll, Map<String, String> httpPeers, long putTimeoutMs, Optional<TlsFiles> tls,
                           HostPort listen) {

    /** A host (name or address) and a port. */
    public record HostPort(String host, int port) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    /**
     * The files of {@code raft.tls.*}, as given; {@link PeerTls} reads and checks them when the node starts.
     *
     * @param certificate         this node's certificate chain (PEM), its own certificate first
     * @param privateKey          the key of that certificate (PEM, unencrypted PKCS#8)
     * @param trustedCertificates the CA or peer certificates (PEM) a peer's certificate must chain to
     */
    public record TlsFiles(Path certificate, Path privateKey, Path trustedCertificates) {
    }

    /** One member: {@code id@host:port}. */
    public record Peer(String id, String host, int port) {
        public String address() {
            return host + ":" + port;
        }

        @Override
        public String toString() {
            return id + "@" + address();
        }
    }

    public static final ConfigKey<String> PEERS = ConfigKey.stringKey("raft.peers", "",
            s -> s.isEmpty() || parsePeersOrNull(s) != null, "id@host:port,... (3 or 5 peers, ids unique)",
            "The Raft group: every member's id and Raft address, the same list on every node");
    public static final ConfigKey<String> SELF_ID = ConfigKey.stringKey("raft.selfId", "", s -> true,
            "one of the ids in raft.peers", "This node's id in raft.peers");
    public static final ConfigKey<String> DIR = ConfigKey.stringKey("raft.dir", "", s -> true,
            "a directory; empty = <storePathRootDir>/raft",
            "Ratis' own files: its log of CommitLog range headers, its metadata, the tiny snapshots");
    public static final ConfigKey<Integer> ELECTION_TIMEOUT_MIN = ConfigKey.intKey("raft.electionTimeoutMin", 700,
            100, 60_000, "How long (ms) a follower waits at least for its leader before it stands for election");
    public static final ConfigKey<Integer> ELECTION_TIMEOUT_MAX = ConfigKey.intKey("raft.electionTimeoutMax", 900,
            200, 120_000, "The most (ms); must exceed raft.electionTimeoutMin");
    public static final ConfigKey<String> ACK = ConfigKey.choiceKey("raft.ack", "MAJORITY", List.of("MAJORITY", "ALL"),
            "A put is acknowledged once a majority (or every member) holds its bytes durably");
    public static final ConfigKey<String> HTTP_PEERS = ConfigKey.stringKey("raft.httpPeers", "",
            s -> s.isEmpty() || parseHttpOrNull(s) != null, "id@host:port,... (the members' `serve` addresses)",
            "Where each member serves HTTP, so a follower redirects a put to its leader (307); empty = answer 503");

    public static final ConfigKey<String> LISTEN = ConfigKey.explainedStringKey("raft.listen", "",
            RaftSettings::listenProblem, "host:port; empty = this node's own address in raft.peers",
            "Where this node's Raft server binds, when the others reach it at another address (raft.peers names "
                    + "that one): behind NAT, a container's port mapping or a proxy");

    public static final ConfigKey<String> TLS_CERTIFICATE = ConfigKey.stringKey("raft.tls.certificate", "", s -> true,
            "a PEM file; empty = plaintext between peers",
            "This node's certificate chain (PEM) for mutual TLS between Raft peers; its SAN must name the host in "
                    + "raft.peers; set with raft.tls.privateKey and raft.tls.trustedCertificates");
    public static final ConfigKey<String> TLS_PRIVATE_KEY = ConfigKey.stringKey("raft.tls.privateKey", "", s -> true,
            "a PEM file (unencrypted PKCS#8); empty = plaintext", "The private key of raft.tls.certificate");
    public static final ConfigKey<String> TLS_TRUSTED = ConfigKey.stringKey("raft.tls.trustedCertificates", "",
            s -> true, "a PEM file of one or more certificates; empty = plaintext",
            "The CA (or peer) certificates a peer's certificate must chain to; a peer without one is refused");

    public static List<ConfigKey<?>> keys() {
        return List.of(PEERS, SELF_ID, DIR, ELECTION_TIMEOUT_MIN, ELECTION_TIMEOUT_MAX, ACK, HTTP_PEERS, LISTEN,
                TLS_CERTIFICATE, TLS_PRIVATE_KEY, TLS_TRUSTED);
    }

    /** @throws ConfigException naming the key and what is wrong */
    public static RaftSettings from(StoreConfig config) {
        String peersText = config.get(PEERS);
        if (peersText.isEmpty()) {
            throw new ConfigException("haService=raft needs raft.peers (id@host:port,... of 3 or 5 members) and "
                    + "raft.selfId");
        }
        List<Peer> peers = parsePeersOrNull(peersText);
        String self = config.get(SELF_ID);
        if (peers.stream().noneMatch(p -> p.id().equals(self))) {
            throw new ConfigException("bad value for raft.selfId: '" + self + "' is not one of the ids in raft.peers ("
                    + String.join(", ", peers.stream().map(Peer::id).toList()) + ")");
        }
        int min = config.get(ELECTION_TIMEOUT_MIN);
        int max = config.get(ELECTION_TIMEOUT_MAX);
        if (max <= min) {
            throw new ConfigException("raft.electionTimeoutMax (" + max + ") must exceed raft.electionTimeoutMin ("
                    + min + ")");
        }
        String dir = config.get(DIR);
        Path raftDir = dir.isEmpty() ? Path.of(config.get(StoreConfigKeys.STORE_PATH_ROOT_DIR)).resolve("raft")
                : Path.of(dir);
        Map<String, String> http = config.get(HTTP_PEERS).isEmpty() ? Map.of() : parseHttpOrNull(config.get(HTTP_PEERS));
        for (String id : http.keySet()) {
            if (peers.stream().noneMatch(p -> p.id().equals(id))) {
                throw new ConfigException("bad value for raft.httpPeers: '" + id + "' is not one of the ids in "
                        + "raft.peers");
            }
        }
        return new RaftSettings(peers, self, raftDir, min, max, "ALL".equals(config.get(ACK)), http,
                config.get(StoreConfigKeys.SYNC_FLUSH_TIMEOUT), tlsFiles(config),
                listen(config.get(LISTEN), peers.stream().filter(p -> p.id().equals(self)).findFirst().orElseThrow()));
    }

    private static HostPort listen(String text, Peer self) {
        return text.isEmpty() ? new HostPort(self.host(), self.port()) : parseHostPortOrNull(text);
    }

    /** Null for a good {@code raft.listen} (empty, or host:port), else what is wrong with it. */
    private static String listenProblem(String text) {
        if (text.isEmpty() || parseHostPortOrNull(text) != null) {
            return null;
        }
        return "not host:port (a host name or address, then a port 1-65535), e.g. 0.0.0.0:9870";
    }

    /** {@code host:port} with a port in 1..65535 and a host without spaces, '@' or ','; or null. */
    static HostPort parseHostPortOrNull(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            return null;
        }
        String host = text.substring(0, colon);
        if (!host.matches("[^\\s@,/]+")) {
            return null;
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            return port < 1 || port > 65535 ? null : new HostPort(host, port);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** All three {@code raft.tls.*} keys, or none: half a TLS setup would silently run plaintext or never connect. */
    private static Optional<TlsFiles> tlsFiles(StoreConfig config) {
        List<ConfigKey<String>> keys = List.of(TLS_CERTIFICATE, TLS_PRIVATE_KEY, TLS_TRUSTED);
        List<String> missing = keys.stream().filter(k -> config.get(k).isBlank()).map(ConfigKey::name).toList();
        if (missing.size() == keys.size()) {
            return Optional.empty();
        }
        if (!missing.isEmpty()) {
            throw new ConfigException("mutual TLS between raft peers needs raft.tls.certificate, raft.tls.privateKey "
                    + "and raft.tls.trustedCertificates; missing: " + String.join(", ", missing));
        }
        return Optional.of(new TlsFiles(Path.of(config.get(TLS_CERTIFICATE).trim()),
                Path.of(config.get(TLS_PRIVATE_KEY).trim()), Path.of(config.get(TLS_TRUSTED).trim())));
    }

    public Peer self() {
        return peers.stream().filter(p -> p.id().equals(selfId)).findFirst().orElseThrow();
    }

    /** {@code id@host:port,...} with 3 or 5 unique ids, or null when it is not that. */
    static List<Peer> parsePeersOrNull(String text) {
        List<Peer> out = new ArrayList<>();
        for (String part : text.split(",")) {
            Peer p = parsePeerOrNull(part.trim());
            if (p == null || out.stream().anyMatch(q -> q.id().equals(p.id()))) {
                return null;
            }
            out.add(p);
        }
        return out.size() == 3 || out.size() == 5 ? out : null;
    }

    /** One {@code id@host:port}, or null. */
    public static Peer parsePeerOrNull(String text) {
        int at = text.indexOf('@');
        int colon = text.lastIndexOf(':');
        if (at <= 0 || colon <= at + 1 || colon == text.length() - 1) {
            return null;
        }
        String id = text.substring(0, at);
        if (!id.matches("[A-Za-z0-9_-]{1,64}")) {
            return null;
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            return port < 1 || port > 65535 ? null : new Peer(id, text.substring(at + 1, colon), port);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Map<String, String> parseHttpOrNull(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            Peer p = parsePeerOrNull(part.trim());
            if (p == null || out.put(p.id(), "http://" + p.address()) != null) {
                return null;
            }
        }
        return out;
    }
}
