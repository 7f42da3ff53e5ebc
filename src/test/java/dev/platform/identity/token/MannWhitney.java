package dev.platform.identity.token;

import java.util.Arrays;

/**
 * The Mann-Whitney U test of two samples (normal approximation, ties ranked by their mean rank): a
 * z far from 0 says one sample tends to be larger, whatever the distributions' shapes.
 */
record MannWhitney(double u, double z) {

  static MannWhitney of(long[] a, long[] b) {
    long[][] all = new long[a.length + b.length][];
    for (int i = 0; i < a.length; i++) {
      all[i] = new long[] {a[i], 0};
    }
    for (int i = 0; i < b.length; i++) {
      all[a.length + i] = new long[] {b[i], 1};
    }
    Arrays.sort(all, (x, y) -> Long.compare(x[0], y[0]));
    double rankSumA = 0;
    for (int i = 0; i < all.length; ) {
      int j = i;
      while (j < all.length && all[j][0] == all[i][0]) {
        j++;
      }
      double meanRank = (i + 1 + j) / 2.0;
      for (int k = i; k < j; k++) {
        rankSumA += all[k][1] == 0 ? meanRank : 0;
      }
      i = j;
    }
    double n1 = a.length;
    double n2 = b.length;
    double u = rankSumA - n1 * (n1 + 1) / 2;
    double z = (u - n1 * n2 / 2) / Math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12);
    return new MannWhitney(u, z);
  }

  static long median(long[] sample) {
    long[] sorted = sample.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }
}
