package dev.sluice.bench.quota;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The K-sweep chart of the quota benchmark: two line charts side by side (attempts per logical
 * action, and 429s received), one line per strategy, K on the horizontal axis, drawn with JFreeChart
 * into one PNG.
 */
final class SweepChart {
  private SweepChart() {}

  static void write(List<Row> sweep, String title, Path out) throws IOException {
    System.setProperty("java.awt.headless", "true");
    JFreeChart amp = chart("Attempts per logical action", "attempts / action", sweep, Row::amplification);
    JFreeChart limited = chart("429s received (fake provider's log)", "429 responses", sweep, r -> r.rateLimited());
    int w = 1400;
    int h = 560;
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, w, h);
    g.setColor(Color.DARK_GRAY);
    g.setFont(g.getFont().deriveFont(16f));
    g.drawString(title, 20, 28);
    amp.draw(g, new Rectangle2D.Double(0, 40, w / 2.0, h - 40));
    limited.draw(g, new Rectangle2D.Double(w / 2.0, 40, w / 2.0, h - 40));
    g.dispose();
    Files.createDirectories(out.toAbsolutePath().getParent());
    ImageIO.write(img, "png", out.toFile());
  }

  private static JFreeChart chart(String title, String yLabel, List<Row> rows, ToDoubleFunction<Row> value) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    for (Row r : rows) {
      data.addValue(value.applyAsDouble(r), r.strategy(), String.format(Locale.ROOT, "K=%d", r.k()));
    }
    JFreeChart c = ChartFactory.createLineChart(title, "concurrent workers", yLabel, data, PlotOrientation.VERTICAL, true, false, false);
    c.setBackgroundPaint(Color.WHITE);
    CategoryPlot plot = c.getCategoryPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    LineAndShapeRenderer renderer = (LineAndShapeRenderer) plot.getRenderer();
    renderer.setDefaultShapesVisible(true);
    for (int i = 0; i < data.getRowCount(); i++) {
      renderer.setSeriesStroke(i, new BasicStroke(2.5f));
    }
    return c;
  }
}
