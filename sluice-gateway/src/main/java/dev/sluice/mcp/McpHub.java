package dev.sluice.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.core.Sluice;
import dev.sluice.core.policy.Policy;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.VirtualThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP hub of the process that holds a data_dir: Sluice's MCP tools over streamable HTTP on a
 * loopback port, for the other stdio servers started on the same data_dir ({@code sluice mcp} run
 * by several MCP clients at once), so that they all use this process's engine: one view of each
 * quota scope, one journal. Its address and secret are in {@code <data_dir>/mcp-hub.json}
 * (owner-only permissions where the file system has them), removed at {@link #close()}.
 *
 * <p>Authentication: {@code Authorization: Bearer <secret>.<agent id>}; the secret is 32 random
 * bytes, compared in constant time; the agent must be one of the policy's (or {@code local} on a
 * policy without agents). Anyone who can read the data_dir can act as any of its agents, as they
 * could by running Sluice on it.
 */
public final class McpHub implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(McpHub.class);
  /** The file, in the data_dir, that names the hub. */
  public static final String FILE_NAME = "mcp-hub.json";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Where a hub listens and the secret it wants. */
  public record Address(URI url, String secret, long pid) {
    public Address {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(secret, "secret");
    }

    /** The bearer token of an agent at this hub. */
    public String tokenFor(String agentId) {
      return secret + "." + agentId;
    }
  }

  private final Server server;
  private final McpHttpEndpoint endpoint;
  private final Path file;
  private final Address address;

  private McpHub(Server server, McpHttpEndpoint endpoint, Path file, Address address) {
    this.server = server;
    this.endpoint = endpoint;
    this.file = file;
    this.address = address;
  }

  /** Starts the hub for {@code sluice} and writes {@code <dataDir>/mcp-hub.json}. */
  public static McpHub start(Sluice sluice, Path dataDir, McpSettings settings) {
    String secret = newSecret();
    Function<String, Optional<McpAgent>> hubTokens = tokens(sluice.policy(), secret);
    McpHttpEndpoint endpoint = McpHttpEndpoint.create(sluice, (token, loopback) -> hubTokens.apply(token), settings); // it listens on loopback only
    QueuedThreadPool pool = new QueuedThreadPool();
    pool.setName("sluice-mcp-hub");
    pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("sluice-mcp-hub-vt"));
    Server server = new Server(pool);
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(endpoint);
    server.setStopTimeout(2_000);
    try {
      server.start();
    } catch (Exception e) {
      stopQuietly(server);
      throw new IllegalStateException("cannot start the MCP hub on 127.0.0.1: " + e.getMessage(), e);
    }
    Address address = new Address(URI.create("http://127.0.0.1:" + connector.getLocalPort() + McpHttpEndpoint.PATH), secret,
        ProcessHandle.current().pid());
    Path file = dataDir.resolve(FILE_NAME);
    try {
      publish(dataDir, address);
    } catch (IllegalStateException e) {
      stopQuietly(server);
      throw e;
    }
    LOG.info("MCP hub for other stdio servers on this data_dir at {} (named in {})", address.url(), file);
    return new McpHub(server, endpoint, file, address);
  }

  /** A new hub secret: 32 random bytes, hex. */
  public static String newSecret() {
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    return HexFormat.of().formatHex(random);
  }

  /**
   * The agent of a hub token ({@code <secret>.<agent id>}): one of the policy's agents, or {@code
   * local} on a policy without agents; empty for anything else. The secret is compared in constant time.
   */
  public static Function<String, Optional<McpAgent>> tokens(Policy policy, String secret) {
    byte[] expected = secret.getBytes(StandardCharsets.UTF_8);
    return token -> {
      int dot = token.indexOf('.');
      if (dot < 0 || !MessageDigest.isEqual(expected, token.substring(0, dot).getBytes(StandardCharsets.UTF_8))) {
        return Optional.empty();
      }
      String agent = token.substring(dot + 1);
      if (policy.agents().isEmpty()) {
        McpAgent local = McpAgent.local(policy);
        return agent.equals(local.id()) ? Optional.of(local) : Optional.empty();
      }
      return policy.agent(agent).map(McpAgent::of);
    };
  }

  /** Writes {@code <dataDir>/mcp-hub.json} naming {@code address} (owner-only, replaced atomically). */
  public static void publish(Path dataDir, Address address) {
    Path file = dataDir.resolve(FILE_NAME);
    try {
      write(file, address);
    } catch (IOException e) {
      throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** Removes {@code <dataDir>/mcp-hub.json} if it still names the hub of {@code secret}. */
  public static void withdraw(Path dataDir, String secret) {
    Path file = dataDir.resolve(FILE_NAME);
    try {
      if (read(dataDir).map(a -> a.secret().equals(secret)).orElse(false)) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      LOG.warn("cannot remove {}: {}", file, e.getMessage());
    }
  }

  /** The hub named in {@code <dataDir>/mcp-hub.json}, if the file is there and readable. */
  public static Optional<Address> read(Path dataDir) {
    Path file = dataDir.resolve(FILE_NAME);
    try {
      JsonNode n = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
      if (!n.path("url").isTextual() || !n.path("secret").isTextual()) {
        LOG.warn("{} does not name a hub (url and secret); ignored", file);
        return Optional.empty();
      }
      return Optional.of(new Address(URI.create(n.get("url").asText()), n.get("secret").asText(), n.path("pid").asLong(-1)));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("cannot read {}: {}", file, e.getMessage());
      return Optional.empty();
    }
  }

  public Address address() {
    return address;
  }

  /** Stops serving; removes the hub file if it still names this hub. */
  @Override
  public void close() {
    withdraw(file.getParent(), address.secret());
    endpoint.closeSessions();
    stopQuietly(server);
  }

  private static void write(Path file, Address a) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("url", a.url().toString());
    m.put("secret", a.secret());
    m.put("pid", a.pid());
    byte[] bytes = JSON.writeValueAsBytes(m);
    Path tmp = file.resolveSibling(FILE_NAME + "." + a.pid() + ".tmp");
    Files.deleteIfExists(tmp);
    try {
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException notPosix) {
      Files.createFile(tmp);
    } catch (FileAlreadyExistsException raced) {
      throw new IOException("another process is writing " + tmp, raced);
    }
    Files.write(tmp, bytes);
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void stopQuietly(Server server) {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("MCP hub did not stop cleanly: {}", e.toString());
    }
  }
}
