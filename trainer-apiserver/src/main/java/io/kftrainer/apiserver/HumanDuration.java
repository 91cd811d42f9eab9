package io.kftrainer.apiserver;

import java.time.Duration;

/** Ages the way kubectl shows them ({@code 45s}, {@code 3m12s}, {@code 5h}, {@code 12d}, ...). */
final class HumanDuration {

  private HumanDuration() {
  }

  static String of(Duration d) {
    long seconds = d.getSeconds();
    if (seconds < -1) {
      return "<invalid>";
    }
    if (seconds < 0) {
      return "0s";
    }
    if (seconds < 120) {
      return seconds + "s";
    }
    long minutes = seconds / 60;
    if (minutes < 10) {
      long rest = seconds % 60;
      return rest == 0 ? minutes + "m" : minutes + "m" + rest + "s";
    }
    if (minutes < 180) {
      return minutes + "m";
    }
    long hours = minutes / 60;
    if (hours < 8) {
      long rest = minutes % 60;
      return rest == 0 ? hours + "h" : hours + "h" + rest + "m";
    }
    if (hours < 48) {
      return hours + "h";
    }
    long days = hours / 24;
    if (hours < 24 * 8) {
      long rest = hours % 24;
      return rest == 0 ? days + "d" : days + "d" + rest + "h";
    }
    if (days < 365 * 2) {
      return days + "d";
    }
    long years = days / 365;
    if (years < 8) {
      long rest = days % 365;
      return rest == 0 ? years + "y" : years + "y" + rest + "d";
    }
    return years + "y";
  }
}
