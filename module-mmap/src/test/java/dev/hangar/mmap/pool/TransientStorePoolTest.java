package dev.hangar.mmap.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import dev.hangar.mmap.nativeio.RecordingLibC;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class TransientStorePoolTest {

    @Test
    void buffersAreBorrowedAndReturned() {
        RecordingLibC libc = RecordingLibC.succeeding();
        TransientStorePool pool = new TransientStorePool(3, 64 * 1024, new NativeMemory(libc, null));
        pool.init();
        assertEquals(3, libc.mlocks.get(), "each buffer is mlocked");
        assertEquals(3, pool.availableBufferNums());

        ByteBuffer first = pool.borrowBuffer();
        ByteBuffer second = pool.borrowBuffer();
        assertNotNull(first);
        assertNotSame(first, second);
        assertTrue(first.isDirect());
        assertEquals(64 * 1024, first.capacity());
        assertEquals(1, pool.availableBufferNums());

        first.position(100).limit(200);
        pool.returnBuffer(first);
        assertEquals(2, pool.availableBufferNums());
        ByteBuffer again = pool.borrowBuffer();
        assertEquals(0, again.position());
        assertEquals(again.capacity(), again.limit());
        pool.returnBuffer(again);
        pool.returnBuffer(second);
        pool.destroy();
        assertEquals(3, libc.munlocks.get(), "every buffer is munlocked on destroy");
        assertEquals(0, pool.availableBufferNums());
    }

    @Test
    void anEmptyPoolLendsNothing() {
        TransientStorePool pool = new TransientStorePool(1, 4096, new NativeMemory(RecordingLibC.succeeding(), null));
        pool.init();
        assertNotNull(pool.borrowBuffer());
        assertNull(pool.borrowBuffer());
        assertEquals(0, pool.availableBufferNums());
        pool.destroy();
    }

    @Test
    void aBufferCannotBeReturnedTwiceOrToTheWrongPool() {
        TransientStorePool pool = new TransientStorePool(2, 4096, new NativeMemory(RecordingLibC.succeeding(), null));
        pool.init();
        ByteBuffer buffer = pool.borrowBuffer();
        pool.returnBuffer(buffer);
        assertThrows(IllegalStateException.class, () -> pool.returnBuffer(buffer));
        assertThrows(IllegalStateException.class, () -> pool.returnBuffer(ByteBuffer.allocateDirect(4096)));
        assertEquals(2, pool.availableBufferNums());
        pool.destroy();
    }

    @Test
    void failingMlockIsOnlyAWarningAndThePoolWorks() {
        NativeMemory memory = new NativeMemory(RecordingLibC.failing(), null);
        TransientStorePool pool = new TransientStorePool(4, 8192, memory);
        pool.init();
        assertEquals(4, pool.availableBufferNums());
        assertEquals(4, memory.failures());
        assertEquals(1, memory.warningsLogged());
        ByteBuffer buffer = pool.borrowBuffer();
        buffer.putLong(0, 99L);
        assertEquals(99L, buffer.getLong(0));
        pool.returnBuffer(buffer);
        pool.destroy();
    }

    @Test
    void aBufferReturnedAfterDestroyIsFreedNotPooled() {
        TransientStorePool pool = new TransientStorePool(2, 4096, new NativeMemory(RecordingLibC.succeeding(), null));
        pool.init();
        ByteBuffer out = pool.borrowBuffer();
        pool.destroy();
        pool.returnBuffer(out);
        assertEquals(0, pool.availableBufferNums());
        assertNull(pool.borrowBuffer());
    }

    @Test
    void badSizesAreRefused() {
        NativeMemory memory = new NativeMemory(RecordingLibC.succeeding(), null);
        assertThrows(IllegalArgumentException.class, () -> new TransientStorePool(0, 4096, memory));
        assertThrows(IllegalArgumentException.class, () -> new TransientStorePool(1, 0, memory));
    }
}
