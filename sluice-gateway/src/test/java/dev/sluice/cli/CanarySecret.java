package dev.sluice.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A secret and every form in which it could leak: raw; URL-encoded; hex; and base64 (standard and
 * URL-safe alphabets) at each of the three byte alignments, cut to the characters that depend on
 * the secret alone — so the secret is found even base64-encoded inside a larger blob (a whole
 * header line, a JSON document). The same for {@code "Bearer " + secret}, the header value it is
 * sent in.
 */
record CanarySecret(String name, String secret, Map<String, String> forms) {

  static CanarySecret of(String name, String secret) {
    Map<String, String> forms = new LinkedHashMap<>();
    for (String s : List.of(secret, "Bearer " + secret)) {
      String label = s.equals(secret) ? name : "Bearer " + name;
      forms.put(label + " raw", s);
      forms.put(label + " url-encoded", URLEncoder.encode(s, StandardCharsets.UTF_8));
      forms.put(label + " url-encoded %20", URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20"));
      forms.put(label + " hex", HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8)));
      for (int shift = 0; shift < 3; shift++) {
        byte[] bytes = ("x".repeat(shift) + s).getBytes(StandardCharsets.UTF_8);
        int from = (8 * shift + 5) / 6; // first base64 character free of the filler bytes
        int to = (8 * bytes.length) / 6; // past the last character made of the secret's bits only
        forms.put(label + " base64 (offset " + shift + ")", Base64.getEncoder().encodeToString(bytes).substring(from, to));
        forms.put(label + " base64url (offset " + shift + ")", Base64.getUrlEncoder().encodeToString(bytes).substring(from, to));
      }
    }
    return new CanarySecret(name, secret, Map.copyOf(forms));
  }

  /** The first form found in {@code text}, named. */
  Optional<String> foundIn(String text) {
    return forms.entrySet().stream().filter(e -> text.contains(e.getValue())).map(Map.Entry::getKey).sorted().findFirst();
  }
}
