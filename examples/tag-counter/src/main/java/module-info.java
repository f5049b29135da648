/**
 * An example third-party dispatcher: counts messages per topic and tag. Drop its jar into the image's
 * {@code plugins/} folder and add {@code tag-counter} to {@code dispatchers}.
 *
 * @provides dev.hangar.spi.dispatch.CommitLogDispatcherProvider tag-counter
 */
module dev.hangar.example.tagcounter {
    requires dev.hangar.spi;

    provides dev.hangar.spi.dispatch.CommitLogDispatcherProvider
            with dev.hangar.example.tagcounter.TagCounterDispatcherProvider;
}
