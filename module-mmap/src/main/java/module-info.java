/**
 * Mapped files: the {@code mmap}, {@code transient-pool} and {@code write-window} variants, the
 * MappedFileQueue they share, pre-allocation, the write-buffer pool and the JNA calls into libc.
 *
 * <p>Exports only {@link dev.hangar.mmap.MappedMemoryStats}; everything else is reached through the
 * {@code dev.hangar.spi.mapped} interfaces the providers build.
 *
 * @provides dev.hangar.spi.mapped.MappedStorageProvider
 */
module dev.hangar.mmap {
    requires dev.hangar.spi;
    requires org.slf4j;
    requires com.sun.jna;
    requires jdk.unsupported;
    // the open-file limit caps how many ConsumeQueue files stay open (DefaultMappedStorage)
    requires jdk.management;

    exports dev.hangar.mmap;

    // JNA builds a proxy for the LibC interface and reads its methods reflectively.
    opens dev.hangar.mmap.nativeio to com.sun.jna;

    provides dev.hangar.spi.mapped.MappedStorageProvider with
            dev.hangar.mmap.provider.MmapStorageProvider,
            dev.hangar.mmap.provider.TransientPoolStorageProvider,
            dev.hangar.mmap.provider.WriteWindowStorageProvider;
}
