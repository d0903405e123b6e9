package dev.sluice.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.policy.Credential;
import dev.sluice.core.policy.Provider;
import dev.sluice.core.policy.SecretRef;
import dev.sluice.core.transport.CredentialHeader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secrets are read once, rendered into the credential header, and never appear in a message. */
class SecretsTest {
  private static final String CANARY = "canary-9d2f-secret";

  private static Provider provider(SecretRef ref) {
    return Provider.builder("billing-api", "https://billing.example.com").credential(new Credential("Authorization", "Bearer {secret}", ref)).build();
  }

  @Test
  void anEnvironmentSecretIsRenderedIntoTheHeader() {
    Optional<CredentialHeader> h = Secrets.credentialHeader(provider(new SecretRef.Env("TOKEN")), n -> n.equals("TOKEN") ? Optional.of(CANARY) : Optional.empty());
    assertThat(h).hasValueSatisfying(c -> {
      assertThat(c.name()).isEqualTo("Authorization");
      assertThat(c.value()).isEqualTo("Bearer " + CANARY);
      assertThat(c.toString()).doesNotContain(CANARY);
    });
  }

  @Test
  void aSecretFileLosesItsTrailingLineBreaksOnly(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("token");
    Files.writeString(f, CANARY + "\r\n\n");
    assertThat(Secrets.credentialHeader(provider(new SecretRef.File(f)), n -> Optional.empty()))
        .hasValueSatisfying(c -> assertThat(c.value()).isEqualTo("Bearer " + CANARY));
  }

  @Test
  void missingEmptyOrMultiLineSecretsFailNamingTheReferenceNeverTheValue(@TempDir Path dir) throws Exception {
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    Path twoLines = Files.writeString(dir.resolve("two"), CANARY + "\nsecond-line");
    assertThatThrownBy(() -> Secrets.credentialHeader(provider(new SecretRef.File(dir.resolve("absent"))), n -> Optional.empty()))
        .hasMessageContaining("provider 'billing-api'").hasMessageContaining("secret_file").hasMessageContaining("cannot be read");
    assertThatThrownBy(() -> Secrets.credentialHeader(provider(new SecretRef.File(empty)), n -> Optional.empty()))
        .hasMessageContaining("is empty");
    assertThatThrownBy(() -> Secrets.credentialHeader(provider(new SecretRef.File(twoLines)), n -> Optional.empty()))
        .hasMessageContaining("cannot be sent in a header").hasMessageNotContaining(CANARY);
  }

  @Test
  void aProviderWithoutCredentialHasNoHeader() {
    assertThat(Secrets.credentialHeader(Provider.builder("open", "https://open.example.com").build(), n -> Optional.of("unused"))).isEmpty();
  }
}
