package dev.hangar.raft;

import java.util.List;
import java.util.UUID;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcFactory;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * Ratis' settings for a group of stores, in one place with the reason for each departure from its defaults.
 */
final class RatisSetup {
    /** Every Hangar raft group has this id: one group per store, named by its members. */
    static final RaftGroupId GROUP_ID = RaftGroupId.valueOf(UUID.nameUUIDFromBytes("hangar-commitlog".getBytes(
            java.nio.charset.StandardCharsets.UTF_8)));
    /**
     * The most bytes one entry's range covers when it holds several records; a backlog is split over several entries,
     * at record boundaries. One record longer than this is an entry of its own.
     */
    static final int MAX_ENTRY_BYTES = 1 << 20;
    /**
     * The largest message body (maxMessageSize, whose default this is) a raft node accepts: a record of it is one
     * entry, and Ratis wants its segment writer's buffer (8 MiB) to hold an appender batch of the longest entry.
     */
    static final int MAX_MESSAGE_BYTES = 4 << 20;
    /** The longest entry: one record of the largest body with its topic, properties and header. */
    static final int MAX_ENTRY_WITH_ONE_RECORD = MAX_MESSAGE_BYTES + (64 << 10);

    private RatisSetup() {
    }

    static RaftGroup group(List<RaftSettings.Peer> peers) {
        return RaftGroup.valueOf(GROUP_ID, peers.stream().map(RatisSetup::peer).toList());
    }

    static RaftPeer peer(RaftSettings.Peer p) {
        return RaftPeer.newBuilder().setId(p.id()).setAddress(p.address()).build();
    }

    static RaftProperties serverProperties(RaftSettings s) {
        RaftProperties p = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(p, List.of(s.dir().toFile()));
        // gRPC, through a factory that notes the leader's senders (FollowerSenders restarts a rebuilt follower's)
        RaftConfigKeys.Rpc.setType(p, new FollowerSenders.Rpc());
        // the others connect to our address in raft.peers; we bind raft.listen (the same, but for NAT or a relay)
        GrpcConfigKeys.Server.setHost(p, s.listen().host());
        GrpcConfigKeys.Server.setPort(p, s.listen().port());
        // the bytes of an entry are state-machine data, never in Ratis' segments. "Caching enabled" means the state
        // machine keeps them, not Ratis' log cache: Ratis drops them from its cached entry and its appender asks
        // read() for them on every send, a copy out of the CommitLog's mapped file (no second copy of a backlog in
        // the heap). "Sync": Ratis writes an entry's header to its segment
        // only after the bytes are in the CommitLog, and forces the segment after the CommitLog (flush), so its log
        // never names bytes a power cut took. (Forcing both at once, not sync, let a power cut keep a header whose
        // bytes were lost: the node could not take the next entry after its restart.)
        RaftServerConfigKeys.Log.StateMachineData.setCachingEnabled(p, true);
        RaftServerConfigKeys.Log.StateMachineData.setSync(p, true);
        RaftServerConfigKeys.Log.StateMachineData.setSyncTimeout(p, TimeDuration.valueOf(s.putTimeoutMs(),
                java.util.concurrent.TimeUnit.MILLISECONDS));
        // an appender batch must hold the longest entry (Ratis refuses an entry over its buffer's limit)
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(MAX_ENTRY_WITH_ONE_RECORD
                + MAX_ENTRY_BYTES));
        RaftServerConfigKeys.Log.Appender.setInstallSnapshotEnabled(p, false);
        // Ratis' appender waits 10 ms for more entries before it sends: a put would wait that long for its ack
        RaftServerConfigKeys.Log.Appender.setWaitTimeMin(p, TimeDuration.valueOf(0,
                java.util.concurrent.TimeUnit.MILLISECONDS));
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(2L * (MAX_ENTRY_WITH_ONE_RECORD + MAX_ENTRY_BYTES)));
        // a JVM mapping gigabytes pauses for GC and page faults: see RaftSettings for the chosen timeouts
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(s.electionMinMs(),
                java.util.concurrent.TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(s.electionMaxMs(),
                java.util.concurrent.TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(Math.max(3000, 2L * s.electionMaxMs()),
                java.util.concurrent.TimeUnit.MILLISECONDS));
        // the snapshot is 16 bytes (the committed offset): take one often, so a restart replays little
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, 100_000);
        // Ratis' log keeps only headers (~60 bytes an entry): purge it only below every follower's progress, so a
        // follower that is behind always finds its entries (there is no snapshot to copy instead)
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, false);
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf("8MB"));
        // no commit-metadata entry after every commit: it was a second replicated and forced round per entry (a
        // closed loop of 16 writers: 1,181 instead of 873 puts/s, docs/PERFORMANCE.md 54); a restarting node learns
        // its committed offset from the snapshot CommittedOffsetSaver writes every second instead
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
        return p;
    }

    /**
     * Ratis' gRPC parameters: with {@code tls} every channel (peer to peer, client and admin to a server) is mutual
     * TLS with the same key and trust; without it plaintext.
     */
    static Parameters parameters(GrpcTlsConfig tls) {
        Parameters p = new Parameters();
        if (tls != null) {
            GrpcConfigKeys.TLS.setConf(p, tls);
            GrpcConfigKeys.Server.setTlsConf(p, tls);
            GrpcConfigKeys.Client.setTlsConf(p, tls);
            GrpcConfigKeys.Admin.setTlsConf(p, tls);
        }
        return p;
    }

    /** A client for the group's admin operations: gives up after 30 s of tries instead of Ratis' retry-forever (a reconfiguration waits for the previous one). */
    static RaftClient adminClient(RaftGroup group, Parameters parameters) {
        RaftProperties p = new RaftProperties();
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(10, java.util.concurrent.TimeUnit.SECONDS));
        return RaftClient.newBuilder()
                .setRaftGroup(group)
                .setProperties(p)
                .setClientId(ClientId.randomId())
                .setParameters(parameters)
                .setClientRpc(new GrpcFactory(parameters).newRaftClientRpc(ClientId.randomId(), p))
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(30,
                        TimeDuration.valueOf(1, java.util.concurrent.TimeUnit.SECONDS)))
                .build();
    }

    static RaftPeerId id(String id) {
        return RaftPeerId.valueOf(id);
    }
}
