package dev.sluice.bench.gateway;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One nginx master started in the foreground ({@code daemon off}) with a generated configuration
 * under a private prefix directory; stopped by its PID (SIGTERM, then SIGKILL to it and its
 * workers if it lingers). Used as the trivial upstream ({@code return 200}) and as the reverse
 * proxy the gateway is compared with.
 */
final class Nginx implements AutoCloseable {
  private final Process process;
  final int port;

  private Nginx(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** nginx answering every request {@code 200 ok} itself, one worker. */
  static Nginx upstream(Path dir, int port) throws IOException {
    return start(dir.resolve("upstream"), port, 1, """
          server {
            listen 127.0.0.1:%d;
            keepalive_requests 1000000;
            location / { return 200 "ok\\n"; }
          }
        """.formatted(port));
  }

  /** nginx as a reverse proxy to {@code upstreamPort}: HTTP/1.1, a keep-alive pool of 128 connections. */
  static Nginx proxy(Path dir, int port, int upstreamPort, int workers) throws IOException {
    return start(dir.resolve("proxy"), port, workers, """
          upstream up {
            server 127.0.0.1:%d;
            keepalive 128;
          }
          server {
            listen 127.0.0.1:%d;
            keepalive_requests 1000000;
            location / {
              proxy_pass http://up;
              proxy_http_version 1.1;
              proxy_set_header Connection "";
            }
          }
        """.formatted(upstreamPort, port));
  }

  private static Nginx start(Path prefix, int port, int workers, String servers) throws IOException {
    Files.createDirectories(prefix.resolve("tmp"));
    Path conf = prefix.resolve("nginx.conf");
    Files.writeString(conf, """
        worker_processes %d;
        pid %s/nginx.pid;
        error_log %s/error.log warn;
        events { worker_connections 4096; }
        http {
          access_log off;
          client_body_temp_path %s/tmp/body;
          proxy_temp_path %s/tmp/proxy;
          fastcgi_temp_path %s/tmp/fastcgi;
          uwsgi_temp_path %s/tmp/uwsgi;
          scgi_temp_path %s/tmp/scgi;
        %s
        }
        """.formatted(workers, prefix, prefix, prefix, prefix, prefix, prefix, prefix, servers));
    Process p = new ProcessBuilder(List.of(GatewayBench.NGINX, "-p", prefix.toString(), "-c", conf.toString(), "-g", "daemon off;"))
        .redirectErrorStream(true).redirectOutput(prefix.resolve("stdout.log").toFile()).start();
    Nginx n = new Nginx(p, port);
    n.awaitListening(Duration.ofSeconds(10), prefix);
    return n;
  }

  private void awaitListening(Duration timeout, Path prefix) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException("nginx exited with " + process.exitValue() + "; see " + prefix.resolve("error.log") + " and stdout.log");
      }
      try (Socket s = new Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        try {
          process.waitFor(20, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while nginx starts", e);
        }
      }
    }
    close();
    throw new IOException("nginx did not listen on 127.0.0.1:" + port + " within " + timeout.toSeconds() + " s; see " + prefix);
  }

  long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    List<ProcessHandle> workers = process.descendants().toList();
    process.destroy(); // SIGTERM: nginx's fast shutdown, the master stops its workers
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (ProcessHandle w : workers) {
      if (w.isAlive()) {
        w.destroyForcibly();
      }
    }
  }
}
