package dev.hangar.mmap.file;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Unmaps a {@link java.nio.MappedByteBuffer} (or frees a direct buffer) at once instead of waiting for the
 * garbage collector, through {@code sun.misc.Unsafe.invokeCleaner} from {@code jdk.unsupported}, looked up
 * reflectively once. ({@code sun.nio.ch.DirectBuffer} is not exported to named modules.)
 *
 * <p>Thread-safe. The caller guarantees that nobody touches the buffer (or any view of it) afterwards: an access
 * to an unmapped buffer crashes the JVM.
 */
public final class MappedBufferCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(MappedBufferCleaner.class);
    private static final MethodHandle INVOKE_CLEANER = lookupInvokeCleaner();

    private MappedBufferCleaner() {
    }

    /** True when buffers can be freed eagerly; otherwise they are left to the garbage collector. */
    public static boolean isAvailable() {
        return INVOKE_CLEANER != null;
    }

    /**
     * Frees {@code buffer} now. Must be the buffer returned by {@code map} or {@code allocateDirect}, not a
     * duplicate or slice. Never throws: a failure is logged and the buffer is left to the garbage collector.
     */
    public static void clean(ByteBuffer buffer) {
        if (buffer == null || !buffer.isDirect() || buffer.capacity() == 0 || INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invokeExact(buffer);
        } catch (Throwable e) {
            LOG.warn("could not free a direct buffer of {} bytes at once, leaving it to the garbage collector: {}",
                    buffer.capacity(), e.toString());
        }
    }

    private static MethodHandle lookupInvokeCleaner() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
            MethodHandle handle = MethodHandles.lookup().findVirtual(unsafeClass, "invokeCleaner",
                    MethodType.methodType(void.class, ByteBuffer.class));
            return handle.bindTo(unsafe);
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn("sun.misc.Unsafe.invokeCleaner is not available ({}); mapped files will be unmapped by the "
                    + "garbage collector, so deleted files may keep their disk space for a while", e.toString());
            return null;
        }
    }
}
