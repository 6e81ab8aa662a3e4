#include "load_color_map.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ws {
namespace {

// Relative luminance (sRGB, Rec. 709 weights on linearised channels).
double luminance(QColor color) {
    auto linear = [](int channel) {
        const double c = channel / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(color.red()) + 0.7152 * linear(color.green()) +
           0.0722 * linear(color.blue());
}

TEST(LoadColorMap, EndsAreViridisEnds) {
    EXPECT_EQ(loadColor(0.0), QColor(68, 1, 84));
    EXPECT_EQ(loadColor(1.0), QColor(253, 231, 37));
    EXPECT_EQ(loadColor(0.5), QColor(33, 144, 141)); // a sample point: exact
}

TEST(LoadColorMap, OutOfRangeAndNanAreClamped) {
    EXPECT_EQ(loadColor(-3.0), loadColor(0.0));
    EXPECT_EQ(loadColor(7.0), loadColor(1.0));
    EXPECT_EQ(loadColor(std::numeric_limits<double>::quiet_NaN()), loadColor(0.0));
}

TEST(LoadColorMap, LuminanceRisesMonotonically) {
    // Perceptual ordering: more load is always lighter, so the map reads in grey too.
    double previous = -1;
    for (int i = 0; i <= 100; ++i) {
        const double current = luminance(loadColor(i / 100.0));
        EXPECT_GT(current, previous) << "at " << i << "%";
        previous = current;
    }
}

TEST(LoadColorMap, BucketsCoverTheRangeAndUseTheMidpointColour) {
    EXPECT_EQ(loadBucket(0.0), 0);
    EXPECT_EQ(loadBucket(1.0), kLoadBuckets - 1);
    EXPECT_EQ(loadBucket(0.5), kLoadBuckets / 2);
    EXPECT_EQ(loadBucket(0.999), kLoadBuckets - 1);
    EXPECT_EQ(bucketColor(kLoadBuckets - 1), loadColor((kLoadBuckets - 0.5) / kLoadBuckets));
}

TEST(LoadColorMap, IdleIsNotOnTheMap) {
    for (int i = 0; i <= 10; ++i)
        EXPECT_NE(idleLinkColor(), loadColor(i / 10.0));
}

// Compare mode's map: RdBu's ends and middle, symmetric buckets (docs/gui.md "Compare").
TEST(LoadColorMap, TheDifferenceMapIsBlueForLessWhiteForNoneRedForMore) {
    EXPECT_EQ(differenceColor(-1.0), QColor(5, 48, 97));
    EXPECT_EQ(differenceColor(0.0), QColor(247, 247, 247));
    EXPECT_EQ(differenceColor(1.0), QColor(103, 0, 31));
    EXPECT_EQ(differenceColor(-4.0), differenceColor(-1.0));
    EXPECT_EQ(differenceColor(std::numeric_limits<double>::quiet_NaN()), differenceColor(0.0));
    EXPECT_EQ(differenceBucket(-1.0), 0);
    EXPECT_EQ(differenceBucket(1.0), kLoadBuckets - 1);
    EXPECT_EQ(differenceBucket(-1e-9), kLoadBuckets / 2 - 1);
    EXPECT_EQ(differenceBucket(1e-9), kLoadBuckets / 2);
    for (int bucket = 0; bucket < kLoadBuckets / 2; ++bucket) {
        // Mirror buckets are as far from white: more red one way, more blue the other.
        const QColor less = differenceBucketColor(bucket);
        const QColor more = differenceBucketColor(kLoadBuckets - 1 - bucket);
        EXPECT_GT(less.blue(), less.red()) << bucket;
        EXPECT_GT(more.red(), more.blue()) << bucket;
    }
}

} // namespace
} // namespace ws
