package dev.hangar.launcher.command;

import dev.hangar.launcher.StoreLauncher;
import dev.hangar.launcher.StoreUse;
import dev.hangar.launcher.json.JsonWriter;
import dev.hangar.store.assembly.ProviderInfo;
import dev.hangar.store.assembly.ProviderRegistry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code plugins}: every provider found in the image and the plugins folder, by SPI, with its module.
 *
 * <p>One instance per invocation, used by one thread.
 */
@Command(name = "plugins", mixinStandardHelpOptions = true,
        description = "Every provider found, by SPI, with its module.",
        footer = {"", "Examples:",
                "  store-launcher plugins",
                "  store-launcher --plugins ./my-plugins plugins --json"})
public final class PluginsCommand implements Callable<Integer> {
    @ParentCommand
    private StoreLauncher launcher;

    @Option(names = "--json", description = "A JSON array of {spi, name, module, description, plugin}")
    private boolean json;

    @Override
    public Integer call() {
        launcher.prepare("warn", StoreUse.NONE);
        ProviderRegistry registry = launcher.registry();
        List<ProviderInfo> providers = registry.all();
        PrintWriter out = launcher.out();
        if (json) {
            List<Map<String, Object>> array = new ArrayList<>();
            for (ProviderInfo p : providers) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("spi", p.spi());
                o.put("name", p.name());
                o.put("module", p.module());
                o.put("description", p.description());
                o.put("plugin", p.plugin());
                array.add(o);
            }
            out.println(JsonWriter.write(array));
            return 0;
        }
        int nameWidth = providers.stream().mapToInt(p -> p.name().length()).max().orElse(4);
        int moduleWidth = providers.stream().mapToInt(p -> p.module().length()).max().orElse(6);
        String spi = null;
        for (ProviderInfo p : providers) {
            if (!p.spi().equals(spi)) {
                spi = p.spi();
                out.println(spi);
            }
            out.printf("  %-" + nameWidth + "s  %-" + moduleWidth + "s  %s%s%n", p.name(), p.module(),
                    p.plugin() ? "[plugin] " : "", p.description());
        }
        Path folder = registry.pluginsDir();
        out.println("plugins folder: " + (folder == null ? "none" : folder.toAbsolutePath()));
        return 0;
    }
}
