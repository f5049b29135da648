package dev.hangar.compat;

import dev.hangar.compat.support.Await;
import dev.hangar.compat.support.CommitLogFiles;
import dev.hangar.compat.support.Dataset;
import dev.hangar.compat.support.Datasets;
import dev.hangar.compat.support.Findings;
import dev.hangar.compat.support.HangarSide;
import dev.hangar.compat.support.RocketSide;
import dev.hangar.compat.support.StoreGeometry;
import dev.hangar.compat.support.StoreSnapshot;
import dev.hangar.store.verify.StoreVerifier;
import dev.hangar.store.verify.VerifyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory written by Apache RocketMQ 4.9.8 and shut down cleanly opens in Hangar, which reads every message
 * as RocketMQ does, finds it healthy with its offline verifier, and appends to the same queues; RocketMQ then
 * reads what Hangar appended.
 */
class RocketMqWritesHangarReadsTest {
    @TempDir
    Path dir;

    @Test
    void hangarReadsWhatRocketMqWroteAndRocketMqReadsWhatHangarAppendedWithAnIpv4StoreHost() throws Exception {
        String host = StoreGeometry.IPV4_STORE_HOST;
        roundTrip(Datasets.mixed("rocketmq-ipv4", "R", 420, host), Datasets.mixed("hangar-append", "R", 150, host, 5000));
    }

    @Test
    void hangarReadsWhatRocketMqWroteAndRocketMqReadsWhatHangarAppendedWithAnIpv6StoreHost() throws Exception {
        String host = StoreGeometry.IPV6_STORE_HOST;
        roundTrip(Datasets.mixed("rocketmq-ipv6", "V", 220, host), Datasets.mixed("hangar-append", "V", 80, host, 5000));
    }

    private void roundTrip(Dataset first, Dataset appended) throws Exception {
        Findings findings = new Findings();
        Dataset all = Dataset.concat(first.name() + " + " + appended.name(), first, appended);
        String host = first.storeHost();

        List<CommitLogFiles.Entry> records;
        StoreSnapshot rocketRead;
        try (RocketSide rocket = RocketSide.open(dir, host)) {
            rocket.write(first);
            Await.dispatched(rocket, first.queueCounts());
            records = CommitLogFiles.records(dir);
            rocketRead = Findings.snapshot(rocket, first, records);
        }
        findings.holds("RocketMQ reads its own store", rocketRead, first, records, true);
        findings.check("RocketMQ shutdown", !Files.exists(dir.resolve("abort")), "RocketMQ left its abort file");
        findings.add("StoreVerifier on the directory RocketMQ wrote", verify(host, records.size()));

        List<CommitLogFiles.Entry> allRecords;
        StoreSnapshot hangarAll;
        try (HangarSide hangar = HangarSide.open(dir, host)) {
            Await.dispatched(hangar, first.queueCounts());
            StoreSnapshot hangarRead = Findings.snapshot(hangar, first, records);
            findings.holds("Hangar reads the store RocketMQ wrote", hangarRead, first, records, true);
            findings.timeSearch("Hangar searches the store RocketMQ wrote by time", hangarRead);
            findings.same("Hangar's reads vs RocketMQ's reads of the store RocketMQ wrote", rocketRead, hangarRead);

            hangar.write(appended);
            Await.dispatched(hangar, all.queueCounts());
            allRecords = CommitLogFiles.records(dir);
            hangarAll = Findings.snapshot(hangar, all, allRecords);
        }
        findings.holds("Hangar reads RocketMQ's messages and its own", hangarAll, all, allRecords, true);
        findings.check("Hangar shutdown", !Files.exists(dir.resolve("abort")), "Hangar left its abort file");
        findings.add("StoreVerifier after Hangar appended", verify(host, allRecords.size()));

        try (RocketSide rocket = RocketSide.open(dir, host)) {
            Await.dispatched(rocket, all.queueCounts());
            StoreSnapshot rocketAll = Findings.snapshot(rocket, all, allRecords);
            findings.holds("RocketMQ reads its messages and the ones Hangar appended", rocketAll, all, allRecords, true);
            findings.same("RocketMQ's reads vs Hangar's reads after the append", hangarAll, rocketAll);
        }
        findings.assertNone();
    }

    /** The verifier's problems; also one when it did not look at every record (a report that cannot fail). */
    private List<String> verify(String host, int records) {
        VerifyReport report = StoreVerifier.verify(dir, HangarSide.config(dir, host));
        List<String> problems = new java.util.ArrayList<>();
        if (!report.healthy()) {
            report.problems().forEach(p -> problems.add(p.toString()));
        }
        if (report.records() != records) {
            problems.add("the verifier checked " + report.records() + " CommitLog records; the directory holds " + records);
        }
        return problems;
    }
}
