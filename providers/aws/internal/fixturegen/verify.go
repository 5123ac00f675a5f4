package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpuatlas/gpuatlas/providers/replay"
)

// verify reads every region's DescribeInstanceTypes answers back through the SDK's
// own deserializer and checks that each record equals the source JSON record (less
// the dropped members): a wrong element name would leave a member empty.
func verify(dir string, records map[string]map[string]any) error {
	srv, err := replay.Start(os.DirFS(dir), replay.AWS)
	if err != nil {
		return err
	}
	defer srv.Close()
	// The client calls the server in process: this checks the XML, not a transport.
	cfg := awsv2.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDFIXTUREGEN", "fixturegen", ""),
		RetryMaxAttempts: 1, HTTPClient: srv}
	client := ec2.NewFromConfig(cfg, func(o *ec2.Options) { o.BaseEndpoint = awsv2.String(srv.URL) })
	ctx := context.Background()
	regions, err := client.DescribeRegions(ctx, &ec2.DescribeRegionsInput{})
	if err != nil {
		return err
	}
	checked := 0
	for _, r := range regions.Regions {
		region := awsv2.ToString(r.RegionName)
		pages := ec2.NewDescribeInstanceTypesPaginator(client, &ec2.DescribeInstanceTypesInput{})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx, func(o *ec2.Options) { o.Region = region })
			if err != nil {
				return fmt.Errorf("%s: %w", region, err)
			}
			for _, got := range page.InstanceTypes {
				want, err := fromJSON(records[string(got.InstanceType)])
				if err != nil {
					return err
				}
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				if !bytes.Equal(g, w) {
					return fmt.Errorf("%s in %s: the XML reads back as\n%s\nwant\n%s", got.InstanceType, region, g, w)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		return fmt.Errorf("no instance types read back")
	}
	fmt.Printf("fixturegen: %d regions, %d instance type records read back through the SDK and equal to the source\n", len(regions.Regions), checked)
	return nil
}

// fromJSON decodes a source record into the SDK type, less the members left out.
func fromJSON(rec map[string]any) (types.InstanceTypeInfo, error) {
	var info types.InstanceTypeInfo
	data, err := json.Marshal(trim(rec, ""))
	if err != nil {
		return info, err
	}
	return info, json.Unmarshal(data, &info)
}
