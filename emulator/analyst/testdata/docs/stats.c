#include <stdio.h>
#include "stats.h"

double mean(const double *xs, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += xs[i];
    return s / n;
}

int main(void) {
    double xs[] = {1, 2, 3};
    printf("%f\n", mean(xs, 3));
    return 0;
}
