package dev.hangar.mmap.file;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hangar.mmap.nativeio.NativeMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HugePageAdvice}: which kernel modes it advises under, and, on this machine's kernel, that an advised
 * range is mapped with the huge-page advice ({@code hg} in its VmFlags) before any page is touched, while a plain
 * file is not (the control); that a scattered-write area's fault reads no 2 MiB page past it; and that a mapping
 * not on a 2 MiB boundary is left alone.
 */
class HugePageAdviceTest {
    private static final int FILE_SIZE = 4 * 1024 * 1024;
    private static final int RECORD = 1024;

    @TempDir
    Path dir;

    @Test
    void theKernelModeIsTheBracketedWordOfTheSysfsLine() throws IOException {
        Path enabled = dir.resolve("enabled");
        Files.writeString(enabled, "always [madvise] never\n");
        assertEquals("madvise", HugePageAdvice.kernelMode(enabled));
        Files.writeString(enabled, "[always] madvise never\n");
        assertEquals("always", HugePageAdvice.kernelMode(enabled));
        Files.writeString(enabled, "always madvise [never]\n");
        assertEquals("never", HugePageAdvice.kernelMode(enabled));
        assertTrue(HugePageAdvice.kernelMode(dir.resolve("missing")).startsWith("unavailable"),
                "a kernel without transparent huge pages has no such file");
    }

    @Test
    void nothingIsAdvisedWhenTheKernelSaysNeverTheKeyIsOffOrThereIsNoNativeLibrary() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        DefaultMappedFile file = new DefaultMappedFile(dir, 0, FILE_SIZE, nativeMemory);
        for (HugePageAdvice none : List.of(HugePageAdvice.of(nativeMemory, "never"),
                HugePageAdvice.of(nativeMemory, "unavailable (no sysfs file)"), HugePageAdvice.none(),
                HugePageAdvice.of(new NativeMemory(null, "test: no native library"), "madvise"))) {
            assertFalse(none.effective(), none.describe());
            assertFalse(none.advise(file.mappingForPretouch(), 0, FILE_SIZE), none.describe());
        }
        assertFalse(Smaps.vmFlags(file.path()).contains("hg"));
        assertTrue(HugePageAdvice.of(nativeMemory, "madvise").effective());
        assertTrue(HugePageAdvice.of(nativeMemory, "always").effective());
        assertTrue(HugePageAdvice.none().describe().contains("transparentHugePages=false"));
        String noJna = HugePageAdvice.of(new NativeMemory(null, "test: no native library"), "madvise").describe();
        assertTrue(noJna.contains("no native calls: test: no native library"), noJna);
        assertTrue(file.destroy(0));
    }

    @Test
    void anAdvisedRangeIsMappedWithHugePagesAndAPlainFileIsNot() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        assertTrue(nativeMemory.isAvailable(), "madvise through JNA (a dependency of the build) must be available");
        HugePageAdvice advice = HugePageAdvice.of(nativeMemory);
        assumeTrue(advice.effective(), "SKIPPED: this kernel gives no transparent huge pages on advice ("
                + advice.describe() + "), so there is nothing to observe");
        DefaultMappedFile control = new DefaultMappedFile(Files.createDirectories(dir.resolve("plain")), 0, FILE_SIZE,
                nativeMemory);
        assertFalse(Smaps.vmFlags(control.path()).contains("hg"), "control: a plain mapping has no huge-page advice");

        DefaultMappedFile advised = new DefaultMappedFile(Files.createDirectories(dir.resolve("advised")), 0,
                FILE_SIZE, nativeMemory);
        assertTrue(advice.advise(advised.mappingForPretouch(), 0, FILE_SIZE));
        assertTrue(Smaps.vmFlags(advised.path()).contains("hg"), "flags " + Smaps.vmFlags(advised.path()));
        assertEquals(0, Smaps.kilobytes(advised.path(), "Rss"), "advising touches nothing");
        for (int i = 0; i < FILE_SIZE / RECORD; i++) {
            assertTrue(advised.append(TestAppends.record(new byte[RECORD], i + 1)).isOk());
        }
        advised.flush(0);
        assertTrue(Smaps.vmFlags(advised.path()).contains("hg"), "a force keeps the advice");
        System.out.println("HugePageAdviceTest: " + Smaps.kilobytes(advised.path(), "FilePmdMapped")
                + " kB of the written 4 MiB file mapped by 2 MiB entries (" + advice.describe() + ")");
        assertTrue(control.destroy(0));
        assertTrue(advised.destroy(0));
    }

    @Test
    void aFaultInAScatteredAreaReadsNoHugePagePastIt() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        HugePageAdvice advice = HugePageAdvice.of(nativeMemory);
        assumeTrue(advice.effective(), "SKIPPED: this kernel gives no transparent huge pages on advice ("
                + advice.describe() + ")");
        int mib = 1024 * 1024;
        MappedByteBuffer mapping = map(dir.resolve("index"), 0, 22 * mib);
        assumeTrue(advice.advise(mapping, 18L * mib), "SKIPPED: the file system here did not place the mapping on a"
                + " 2 MiB boundary, so nothing is advised");
        mapping.put(17 * mib + 123, (byte) 1);
        long lastAdvised = nativeMemory.residentPages(mapping, 16L * mib, 2L * mib);
        long after = nativeMemory.residentPages(mapping, 18L * mib, 2L * mib);
        System.out.println("HugePageAdviceTest: one byte written at 17 MiB of an area advised up to 18 MiB: " + lastAdvised
                + " of 512 pages resident in [16, 18) MiB, " + after + " in [18, 20) MiB");
        // a huge-page fault reads two 2 MiB pages unless told not to read around: the second one would be the
        // entries of an index file, written back whole from then on
        assertEquals(0, after, "nothing past the advised area is read in");
    }

    @Test
    void aMappingNotOnATwoMebibyteBoundaryIsLeftAlone() throws IOException {
        NativeMemory nativeMemory = NativeMemory.system();
        HugePageAdvice advice = HugePageAdvice.of(nativeMemory, "madvise");
        assertTrue(advice.effective(), "madvise through JNA (a dependency of the build) must be available");
        MappedByteBuffer mapping = map(dir.resolve("misaligned"), 0, FILE_SIZE);
        long address = nativeMemory.address(mapping);
        assertTrue(address > 0 && address % 4096 == 0, "a mapping starts on a page: " + address);
        // a slice 4 KiB in is off the 2 MiB boundary if the mapping is on one, and the mapping itself otherwise
        MappedByteBuffer misaligned = address % (2 * 1024 * 1024) == 0 ? mapping.slice(4096, FILE_SIZE - 4096)
                : mapping;
        ByteBuffer scattered = misaligned;
        assertFalse(advice.advise(scattered, 2 * 1024 * 1024), "scattered area");
        assertFalse(advice.advise(misaligned, 0, 2 * 1024 * 1024), "CommitLog region");
        assertEquals(2, advice.refusedMisaligned());
        assertFalse(Smaps.vmFlags(dir.resolve("misaligned")).contains("hg"), "no advice reached the kernel");
        assertFalse(advice.advise(mapping, FILE_SIZE + 1L), "a length past the buffer is refused, not thrown");
    }

    private static MappedByteBuffer map(Path file, long position, long size) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, position, size);
        }
    }
}
