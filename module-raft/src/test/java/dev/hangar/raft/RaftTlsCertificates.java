package dev.hangar.raft;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test certificates made by the JDK's own {@code keytool}: one self-signed EC key pair per node, its certificate naming
 * 127.0.0.1 and localhost (gRPC checks the peer's host against the certificate), written as the PEM files the
 * {@code raft.tls.*} keys take.
 */
final class RaftTlsCertificates {
    private static final String PASSWORD = "test-only";

    private RaftTlsCertificates() {
    }

    /** One node's files: its certificate (PEM) and its private key (PEM, PKCS#8). */
    record NodeFiles(Path certificate, Path privateKey) {
    }

    /** A self-signed certificate and key for {@code name}, under {@code dir}. */
    static NodeFiles generate(Path dir, String name) throws IOException, InterruptedException,
            GeneralSecurityException {
        Path keyStore = dir.resolve(name + ".p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-sigalg",
                "SHA256withECDSA", "-dname", "CN=" + name + ",O=hangar-test", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-validity", "2", "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", PASSWORD,
                "-keypass", PASSWORD);
        Path certificate = dir.resolve(name + "-cert.pem");
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", keyStore.toString(), "-storepass", PASSWORD,
                "-file", certificate.toString());
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        Key key = store.getKey(name, PASSWORD.toCharArray());
        Path privateKey = dir.resolve(name + "-key.pem");
        Files.writeString(privateKey, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n", StandardCharsets.US_ASCII);
        return new NodeFiles(certificate, privateKey);
    }

    /** A PEM file of the certificates of {@code nodes}, the trust of a node that accepts exactly those. */
    static Path trust(Path file, List<NodeFiles> nodes) throws IOException {
        StringBuilder pem = new StringBuilder();
        for (NodeFiles n : nodes) {
            pem.append(Files.readString(n.certificate(), StandardCharsets.US_ASCII));
        }
        Files.writeString(file, pem, StandardCharsets.US_ASCII);
        return file;
    }

    /** The {@code raft.tls.*} settings of a node: its own files and whom it trusts. */
    static String[] settings(NodeFiles self, Path trusted) {
        return new String[] {"raft.tls.certificate", self.certificate().toString(),
                "raft.tls.privateKey", self.privateKey().toString(),
                "raft.tls.trustedCertificates", trusted.toString()};
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + String.join(" ", args) + " failed: "
                    + new String(output, StandardCharsets.UTF_8));
        }
    }
}
