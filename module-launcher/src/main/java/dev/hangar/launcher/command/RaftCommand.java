package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfigKeys;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code raft}: a running raft node's consensus group, through its HTTP API ({@code /v1/raft}): the serving process
 * holds the store's lock, so these commands never open the store. {@code status} prints the role, term, leader,
 * committed offset and each peer's progress; {@code transfer-leader}, {@code add-peer} and {@code remove-peer}
 * change the group online and return once it applied the change. One instance per invocation.
 */
@Command(name = "raft", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Show or change the Raft group of a running node (haService=raft), over its HTTP API.",
        subcommands = {RaftCommand.Status.class, RaftCommand.TransferLeader.class, RaftCommand.AddPeer.class,
                RaftCommand.RemovePeer.class},
        footer = {"", "Examples:", "  store-launcher raft status --url http://10.0.0.1:8080",
                "  store-launcher raft transfer-leader n2", "  store-launcher raft add-peer n4@10.0.0.4:9870",
                "  store-launcher raft remove-peer n3"})
public final class RaftCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Spec
    private CommandSpec spec;

    /** {@code raft} alone: what it takes. */
    @Override
    public Integer call() {
        spec.commandLine().usage(launcher.err());
        return StoreLauncher.EXIT_USAGE;
    }

    /** The options every raft subcommand takes: where the node is and its token. */
    static class NodeOptions {
        @ParentCommand
        RaftCommand raft;

        @Option(names = "--url", paramLabel = "URL", defaultValue = "http://127.0.0.1:8080",
                description = "HTTP address of any node of the group (store-launcher serve); default ${DEFAULT-VALUE}")
        String url;

        @Option(names = "--token", paramLabel = "TOKEN", description = "The node's httpToken; default: httpToken "
                + "of the configuration (-DhttpToken, HANGAR_HTTP_TOKEN, --config)")
        String token;

        NodeApi node() {
            String t = token != null ? token : raft.launcher.prepare("warn", StoreUse.NONE)
                    .get(StoreConfigKeys.HTTP_TOKEN);
            return new NodeApi(url, t);
        }

        PrintWriter out() {
            return raft.launcher.out();
        }

        /** Prints what the node answered after a change. */
        int changed(NodeApi.Answer answer) {
            out().println("done: " + answer.json().get("done") + " " + answer.json().get("peer"));
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Role, term, leader, committed offset, and each peer's match offset and lag (known on the "
                    + "leader).")
    static final class Status extends NodeOptions implements Callable<Integer> {
        @Option(names = "--json", description = "The node's /v1/raft answer, one JSON object")
        boolean json;

        @Override
        public Integer call() {
            Map<String, Object> s = node().call("GET", "/v1/raft").json();
            if (json) {
                out().println(JsonWriter.write(s));
            } else {
                RaftStatusTable.print(out(), s);
            }
            return 0;
        }
    }

    @Command(name = "transfer-leader", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Hand leadership to the member ID (e.g. before taking the leader down).")
    static final class TransferLeader extends NodeOptions implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "The peer id of the new leader")
        String id;

        @Override
        public Integer call() {
            return changed(node().call("POST", "/v1/raft/transfer-leader?peer=" + encode(id)));
        }
    }

    @Command(name = "add-peer", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Add a member; it catches up from the leader before it counts towards a majority.")
    static final class AddPeer extends NodeOptions implements Callable<Integer> {
        @Parameters(paramLabel = "ID@HOST:PORT", description = "The new peer's id and Raft address")
        String peer;

        @Override
        public Integer call() {
            return changed(node().call("POST", "/v1/raft/peers?peer=" + encode(peer)));
        }
    }

    @Command(name = "remove-peer", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Remove the member ID from the group.")
    static final class RemovePeer extends NodeOptions implements Callable<Integer> {
        @Parameters(paramLabel = "ID", description = "The peer id to remove")
        String id;

        @Override
        public Integer call() {
            return changed(node().call("DELETE", "/v1/raft/peers/" + encode(id).replace("+", "%20")));
        }
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
