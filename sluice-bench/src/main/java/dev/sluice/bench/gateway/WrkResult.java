package dev.sluice.bench.gateway;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one wrk run printed (with {@code --latency}): requests per second, the latency percentiles
 * and the errors.
 *
 * @param requestsPerSecond wrk's "Requests/sec"
 * @param p50Ms the 50th percentile of latency, ms
 * @param p99Ms the 99th percentile of latency, ms
 * @param non2xx responses that were not 2xx or 3xx
 * @param socketErrors connect, read, write and timeout errors
 */
record WrkResult(double requestsPerSecond, double p50Ms, double p99Ms, long non2xx, long socketErrors) {

  static WrkResult parse(String out) {
    double rps = number(out, "Requests/sec:\\s+([0-9.]+)");
    double p50 = millis(out, "\\n\\s+50%\\s+([0-9.]+)(us|ms|s)");
    double p99 = millis(out, "\\n\\s+99%\\s+([0-9.]+)(us|ms|s)");
    long non2xx = 0;
    Matcher n = Pattern.compile("Non-2xx or 3xx responses:\\s+(\\d+)").matcher(out);
    if (n.find()) {
      non2xx = Long.parseLong(n.group(1));
    }
    long errors = 0;
    Matcher e = Pattern.compile("Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)").matcher(out);
    if (e.find()) {
      for (int i = 1; i <= 4; i++) {
        errors += Long.parseLong(e.group(i));
      }
    }
    return new WrkResult(rps, p50, p99, non2xx, errors);
  }

  private static double number(String out, String regex) {
    Matcher m = Pattern.compile(regex).matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("wrk output without " + regex + ":\n" + out);
    }
    return Double.parseDouble(m.group(1));
  }

  private static double millis(String out, String regex) {
    Matcher m = Pattern.compile(regex).matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("wrk output without a latency percentile (" + regex + "):\n" + out);
    }
    double v = Double.parseDouble(m.group(1));
    return switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "us" -> v / 1000;
      case "s" -> v * 1000;
      default -> v;
    };
  }
}
