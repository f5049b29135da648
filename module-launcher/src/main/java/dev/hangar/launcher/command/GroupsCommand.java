package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.consumer.GroupReport;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code groups}: every consumer group with its committed offsets and lag per topic and queue. Opens the store
 * read-only. One instance per invocation.
 */
@Command(name = "groups", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the consumer groups with their committed offsets and lag.",
        footer = {"", "Examples:", "  store-launcher --store /data/hangar groups", "  store-launcher groups --json"})
public final class GroupsCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "One JSON object per group: {group, lag, topics:[{topic, lag, queues}]}")
    private boolean json;

    @Override
    public Integer call() {
        StoreConfig config = launcher.prepare("warn", StoreUse.READ);
        PrintWriter out = launcher.out();
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.READ)) {
            for (String group : session.store().consumerOffsets().groups()) {
                List<GroupReport.QueueLag> lags = GroupReport.lags(session.store(), group);
                if (json) {
                    out.println(JsonWriter.write(GroupReport.json(group, lags)));
                    continue;
                }
                out.println(group + "  lag " + lags.stream().mapToLong(GroupReport.QueueLag::lag).sum());
                for (GroupReport.QueueLag l : lags) {
                    out.println("  " + l.topic() + " queue " + l.queueId() + ": committed " + l.committed() + ", max "
                            + l.maxOffset() + ", lag " + l.lag());
                }
            }
        }
        return 0;
    }
}
