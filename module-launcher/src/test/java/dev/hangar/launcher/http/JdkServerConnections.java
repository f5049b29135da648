package dev.hangar.launcher.http;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The sockets of the connections a JDK {@link HttpServer} holds open, read through its internals (the tests run
 * with {@code --add-opens jdk.httpserver/sun.net.httpserver=ALL-UNNAMED}, see the module's pom).
 */
final class JdkServerConnections {
    private JdkServerConnections() {
    }

    /** The channel of every connection the server holds (idle or in a request). */
    static List<SocketChannel> channels(HttpServer server) throws ReflectiveOperationException {
        Object impl = field(server, "server");
        Set<?> connections = (Set<?>) field(impl, "allConnections");
        List<SocketChannel> channels = new ArrayList<>();
        synchronized (connections) {
            for (Object connection : connections) {
                channels.add((SocketChannel) field(connection, "chan"));
            }
        }
        return channels;
    }

    /** Whether TCP_NODELAY is on for every one of {@code channels}. */
    static boolean allNoDelay(List<SocketChannel> channels) throws IOException {
        for (SocketChannel channel : channels) {
            if (!channel.getOption(StandardSocketOptions.TCP_NODELAY)) {
                return false;
            }
        }
        return true;
    }

    private static Object field(Object target, String name) throws ReflectiveOperationException {
        for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(target.getClass().getName() + "." + name);
    }
}
