package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.consumer.GroupReport;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.spi.config.StoreConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code stat}: opens the store and prints the engine's statistics snapshot: commit-log range and files,
 * per-queue min/max offsets, dispatch lag, disk use, flush statistics.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = "Commit-log range, files, per-queue min/max offsets, dispatch lag, disk use.",
        footer = {"", "Examples:",
                "  store-launcher --store /data/hangar stat",
                "  store-launcher --store /data/hangar stat --json | python3 -m json.tool"})
public final class StatCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "One JSON object")
    private boolean json;

    @Override
    public Integer call() {
        StoreConfig config = launcher.prepare("warn", StoreUse.READ);
        try (StoreSession session = StoreSession.open(launcher, config, StoreUse.READ)) {
            session.awaitDispatched();
            Map<String, Object> snapshot = new LinkedHashMap<>(session.store().statsSnapshot().toMap());
            // the groups beside the store's own figures: committed offsets and lag per topic and queue
            List<Map<String, Object>> groups = new ArrayList<>();
            for (String group : session.store().consumerOffsets().groups()) {
                groups.add(GroupReport.json(group, GroupReport.lags(session.store(), group)));
            }
            snapshot.put("consumerGroups", groups);
            if (json) {
                launcher.out().println(JsonWriter.write(snapshot));
            } else {
                TextTree.print(launcher.out(), snapshot);
            }
        }
        return 0;
    }
}
