package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ConsumeQueue appends take two paths in {@link OnDemandMappedFile}: a unit reaching into a page not written before
 * goes through {@code pwrite}, a unit inside the page the previous unit wrote goes through the mapping. Whatever the
 * mix, and across parking and re-mapping, the file holds exactly the bytes appended.
 */
class OnDemandAppendTest {
    private static final int UNIT = 20;
    private static final int UNITS = 4096;

    @TempDir
    Path dir;

    @Test
    void onlyAUnitInsideThePageThePreviousUnitWroteGoesThroughTheMapping() {
        assertFalse(OnDemandMappedFile.withinWrittenPage(0, UNIT), "the first unit of a file");
        assertTrue(OnDemandMappedFile.withinWrittenPage(20, UNIT));
        assertTrue(OnDemandMappedFile.withinWrittenPage(4076, UNIT), "ends exactly at the page's end");
        assertFalse(OnDemandMappedFile.withinWrittenPage(4080, UNIT), "straddles into the next page");
        assertFalse(OnDemandMappedFile.withinWrittenPage(4096, UNIT), "starts a page after a full one");
        assertTrue(OnDemandMappedFile.withinWrittenPage(4100, UNIT));
    }

    @Test
    void unitsWrittenThroughBothPathsAndAcrossParkingReadBackByteForByte() throws IOException {
        MappingBudget budget = new MappingBudget(4);
        OnDemandMappedFile file = new OnDemandMappedFile(dir.resolve("q"), 0, UNITS * UNIT, NativeMemory.system(),
                budget);
        byte[] expected = new byte[UNITS * UNIT];
        try {
            byte[] unit = new byte[UNIT];
            for (int i = 0; i < UNITS; i++) {
                Arrays.fill(unit, (byte) (i * 31 + 7));
                unit[0] = (byte) i;
                unit[UNIT - 1] = (byte) (i >> 8);
                System.arraycopy(unit, 0, expected, i * UNIT, UNIT);
                assertTrue(file.appendBytes(unit, 0, UNIT), "unit " + i);
                if (i % 37 == 36) {
                    assertEquals(OnDemandMappedFile.Park.PARKED, file.parkIfIdle(), "parked after unit " + i);
                }
            }
            assertEquals(UNITS * UNIT, file.wrotePosition());
            file.flush(0);
            assertArrayEquals(expected, Files.readAllBytes(file.path()), "the file's bytes");
        } finally {
            file.shutdown(0);
        }
    }
}
